import type { LambdaResult } from '../../../ports/index.js';
import type { SandboxContext } from '../../../service-module.js';
import type { MappingRecord } from '../model.js';
import type { LambdaStore } from '../store.js';

export type Invoke = (functionArn: string, payload: string) => Promise<LambdaResult>;

/** What a poller reads and calls. */
export interface PollerDeps {
  context: SandboxContext;
  store: LambdaStore;
  invoke: Invoke;
}

/** Records what the last batch came to (LastProcessingResult), saving only a change. */
export async function noteResult(store: LambdaStore, mapping: MappingRecord, result: string): Promise<void> {
  if (mapping.lastProcessingResult === result) return;
  mapping.lastProcessingResult = result;
  await store.saveMappingProgress(mapping);
}

import { randomUUID } from 'node:crypto';
import { s3Responses } from '../../providers/custom-resource/s3-responses.js';
import type { CustomResourceSite } from '../../providers/index.js';
import { stackStateKeys } from '../../state/keys.js';
import { partitionForRegion } from '../../template/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import type { StackState } from '../../stack-state/index.js';

/**
 * What the custom-resource provider needs of one stack: its handlers answer under the
 * stack's keys in the state bucket (through the backend's client for the bucket's own
 * region), and they are sent the StackId its state keeps, made on first use.
 */
export function customResourceSite(
  engine: EngineContext,
  stack: StackIdentity,
  state: StackState,
  signal?: AbortSignal,
): CustomResourceSite {
  const { objects, store } = engine.backend;
  const keys = stackStateKeys(store.prefix, stack.stateName, stack.region);
  // Saved with the stack's next state save, which precedes any record a handler's answer makes.
  state.document.stackId ??= `arn:${partitionForRegion(stack.region)}:cloudformation:${stack.region}:${stack.accountId}:stack/${stack.stackName}/${randomUUID()}`;
  return {
    responses: s3Responses(objects.s3, objects.bucket, keys.customResourceResponsesPrefix),
    stackId: state.document.stackId,
    ...(signal ? { signal } : {}),
  };
}

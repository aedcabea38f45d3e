import { createHash } from 'node:crypto';
import type { ExternalResolver } from '../../template/index.js';
import type { PlannedStack } from '../planning/index.js';
import type { LiveAttributes } from '../planning/index.js';
import { evaluateOutputs, type EvaluatedOutputs } from '../planning/index.js';
import type { StackRequest } from '../stack-request.js';
import type { StackState } from '../../stack-state/index.js';

/** The stack record's generation this deploy applies: its template, parameters (NoEcho masked), tags and termination protection. */
export function recordGeneration(state: StackState, request: StackRequest, planned: PlannedStack): void {
  state.document.template = request.template;
  state.document.templateHash = sha256(JSON.stringify(request.template));
  state.document.parameters = planned.prepared.maskedParameters() as Record<string, string | string[]>;
  state.document.tags = request.tags ?? {};
  if (request.terminationProtection) state.document.terminationProtection = true;
  else delete state.document.terminationProtection;
}

/**
 * What a successful run records on the stack besides its resources: outputs, imports, its
 * generation. Answers the outputs as evaluated (those that resolved, those refused).
 */
export async function recordRun(
  state: StackState,
  request: StackRequest,
  planned: PlannedStack,
  resolver: ExternalResolver,
  live?: LiveAttributes,
): Promise<EvaluatedOutputs> {
  const outputs = await evaluateOutputs(planned.masked, resolver, {
    ...(live ? { live } : {}),
    previous: state.document.outputs,
  });
  state.document.outputs = outputs.stored;
  state.document.imports = [...planned.imported].sort();
  recordGeneration(state, request, planned);
  return outputs;
}

/**
 * What `recordRun` writes, as text to compare: a run that leaves it unchanged changed nothing.
 * The template counts by its hash, which `recordGeneration` sets, so 500 resources' records
 * and their template are not serialized twice per no-op.
 */
export function runRecordText({ document }: StackState): string {
  const { outputs, imports, templateHash, parameters, tags, terminationProtection } = document;
  return JSON.stringify([outputs, imports, templateHash, parameters, tags, terminationProtection ?? false]);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

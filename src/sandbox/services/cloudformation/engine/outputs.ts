import type { StackOutput } from '../model/types.js';
import { exportRefusal } from './exports.js';
import { reasonOf } from './failures.js';
import type { StackOperation } from './operation.js';
import type { Evaluation } from './resource-steps.js';

/** Outputs are strings; a list (Fn::GetAZs, Fn::Split) reads as CloudFormation shows it, comma-joined. */
function outputText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * Evaluates the template's outputs and publishes them on the stack, unless CloudFormation
 * would refuse their exports (a name another stack exports; one another stack imports that
 * would change or go). Returns the reason the operation fails, or undefined.
 */
export async function publishOutputs(
  op: StackOperation,
  evaluation: Evaluation,
  before: readonly StackOutput[],
): Promise<string | undefined> {
  let outputs: StackOutput[];
  try {
    outputs = evaluation.prepared.evaluateOutputs(evaluation.resolver).map((output) => ({
      key: output.name,
      value: outputText(output.value),
      ...(output.description !== undefined ? { description: output.description } : {}),
      ...(output.exportName !== undefined ? { exportName: output.exportName } : {}),
    }));
  } catch (error) {
    return reasonOf(error);
  }
  const refusal = exportRefusal(op.deps.store, op.stack, before, outputs);
  if (refusal !== undefined) return refusal;
  op.stack.outputs = outputs;
  op.stack.imports = [...evaluation.imports].sort();
  await op.persist();
  return undefined;
}

import type { Scope, StackStore } from '../model/store.js';
import { exportsLive } from '../model/status.js';
import type { StackOutput, StackRecord } from '../model/types.js';

/** One export: the stack that exports it and its value. */
export interface ExportEntry {
  name: string;
  value: string;
  stackId: string;
  stackName: string;
}

/** Every export in an account and region, from the stacks whose outputs count. */
export function exportsIn(store: StackStore, scope: Scope): ExportEntry[] {
  return store
    .inScope(scope)
    .filter(exportsLive)
    .flatMap((stack) =>
      stack.outputs
        .filter((output): output is StackOutput & { exportName: string } => output.exportName !== undefined)
        .map((output) => ({
          name: output.exportName,
          value: output.value,
          stackId: stack.stackId,
          stackName: stack.stackName,
        })),
    );
}

/** The stacks (other than `except`) whose template imports `name`. */
export function importersOf(store: StackStore, scope: Scope, name: string, except?: string): StackRecord[] {
  return store
    .inScope(scope)
    .filter(
      (stack) => stack.stackId !== except && exportsLive(stack) && (stack.imports ?? []).includes(name),
    );
}

/**
 * CloudFormation's refusals for a stack's new outputs: an export another stack already
 * exports, and an export another stack imports that this one would remove or change.
 * Undefined when the outputs may be published.
 */
export function exportRefusal(
  store: StackStore,
  stack: StackRecord,
  before: readonly StackOutput[],
  after: readonly StackOutput[],
): string | undefined {
  const scope = { region: stack.region, accountId: stack.accountId };
  for (const output of after) {
    if (output.exportName === undefined) continue;
    const owner = exportsIn(store, scope).find(
      (entry) => entry.name === output.exportName && entry.stackId !== stack.stackId,
    );
    if (owner) return `Export with name ${output.exportName} is already exported by stack ${owner.stackName}`;
  }
  return inUseRefusal(store, stack, before, after);
}

/** An export another stack imports that going from `before` to `after` removes or changes. */
export function inUseRefusal(
  store: StackStore,
  stack: StackRecord,
  before: readonly StackOutput[],
  after: readonly StackOutput[],
): string | undefined {
  const scope = { region: stack.region, accountId: stack.accountId };
  for (const output of before) {
    if (output.exportName === undefined) continue;
    const importers = importersOf(store, scope, output.exportName, stack.stackId);
    if (importers.length === 0) continue;
    const next = after.find((candidate) => candidate.exportName === output.exportName);
    if (next && next.value === output.value) continue;
    const verb = next ? 'updated' : 'deleted';
    return `Export ${output.exportName} cannot be ${verb} as it is in use by ${importers.map((s) => s.stackName).join(', ')}`;
  }
  return undefined;
}

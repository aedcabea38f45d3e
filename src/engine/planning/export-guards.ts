import { CdkdError } from '../../errors.js';
import type { MovingExport } from '../../plan/index.js';
import type { ExportIndex } from '../export-index.js';
import type { StackState } from '../../stack-state/index.js';
import type { OwnExportChange } from './cloudformation-exports.js';

/** An export name is the region's: one another stack already exports is refused, as CloudFormation does. */
export function refuseExportsOfOtherStacks(
  state: StackState,
  exports: ExportIndex,
  declared: ReadonlySet<string>,
): void {
  const taken = [...declared].flatMap((name) => {
    const exporter = exports.exporterOf(name);
    return exporter !== undefined && exporter !== state.document.stackName
      ? [`${name} (by ${exporter})`]
      : [];
  });
  if (taken.length === 0) return;
  throw new CdkdError(
    'EXPORT_NAME_TAKEN',
    `Stack ${state.document.stackName} exports names another stack already exports: ${taken.join('; ')}.`,
    { hint: 'Give the output another Export name, or remove the export from the other stack first.' },
  );
}

/** An export another stack still imports may not be removed (CloudFormation refuses it too). */
export function refuseRemovedExportsInUse(
  state: StackState,
  exports: ExportIndex,
  declared: ReadonlySet<string>,
): void {
  const removed = Object.values(state.document.outputs).flatMap((output) =>
    output.exportName !== undefined && !declared.has(output.exportName) ? [output.exportName] : [],
  );
  const inUse = exports.stillImported(state.document.stackName, removed);
  if (inUse.length === 0) return;
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${state.document.stackName} would remove exports other stacks still import: ${inUse.join('; ')}.`,
    { hint: 'Deploy the importing stacks without the Fn::ImportValue first, then deploy this stack.' },
  );
}

/**
 * Nor may its value change: CloudFormation refuses "Cannot update export <name> as it is in
 * use by <stack>", since the importer would keep reading the old value.
 */
export function refuseChangedExportsInUse(
  stackName: string,
  exports: ExportIndex,
  values: ReadonlyMap<string, unknown>,
): void {
  const changed = exports.changedWhileImported(stackName, values);
  if (changed.length === 0) return;
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${stackName} would change exports other stacks import: ${changed.join('; ')}.`,
    {
      hint: 'Deploy the importing stacks without the Fn::ImportValue first (or export the new value under a new name), then deploy this stack.',
    },
  );
}

/**
 * An export a recreated target moves may change only when every stack importing it deploys
 * after this one in the same run, so its readers follow; otherwise the importer would keep
 * reading a resource the deploy deletes. Refused at planning, before anything is touched.
 */
export function refuseStrandedExports(stackName: string, moving: readonly MovingExport[]): void {
  const stranded = moving.filter((entry) => entry.stranded.length > 0);
  if (stranded.length === 0) return;
  const lines = stranded.map(
    (entry) =>
      `Cannot update export ${entry.exportName} as it is in use by ${entry.stranded.join(', ')} (it reads ${entry.targets.join(', ')}, which this deploy recreates)`,
  );
  const importers = [...new Set(stranded.flatMap((entry) => entry.stranded))].sort();
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${stackName} would change exports other stacks import: ${lines.join('; ')}.`,
    {
      hint: `Deploy the importing stacks in the same run so their readers follow: cdkd deploy ${[stackName, ...importers].join(' ')} (or --all); a stack of another app must stop importing it first.`,
    },
  );
}

/**
 * A name a cdkd stack and a CloudFormation stack both export is refused, not resolved: on AWS
 * a region holds one export per name, so either copy could be the one the author meant.
 */
export function refuseAmbiguousImports(
  stackName: string,
  exports: ExportIndex,
  names: Iterable<string>,
): void {
  const both = exports.ambiguous(names);
  if (both.length === 0) return;
  const lines = both.map(
    (entry) =>
      `${entry.name} (exported by cdkd stack ${entry.cdkdStack} and by CloudFormation stack ${entry.cloudFormationStack})`,
  );
  throw new CdkdError(
    'EXPORT_NAME_AMBIGUOUS',
    `Stack ${stackName} imports export names both cdkd and CloudFormation hold: ${lines.join('; ')}.`,
    {
      hint: 'A region holds one export per name: remove or rename the export in one of the two stacks, then deploy this stack again.',
    },
  );
}

/**
 * An export name new to this stack may not be one a CloudFormation stack exports (CloudFormation
 * refuses a second exporter); only a name the stack did not export before costs a ListExports.
 */
export async function refuseExportsCloudFormationHolds(
  state: StackState,
  exports: ExportIndex,
  declared: ReadonlySet<string>,
): Promise<void> {
  const held = new Set(Object.values(state.document.outputs).flatMap((output) => output.exportName ?? []));
  const fresh = [...declared].filter((name) => !held.has(name));
  if (fresh.length === 0) return;
  await exports.readCloudFormation();
  const taken = fresh.flatMap((name) => {
    const exporter = exports.cloudFormationExporterOf(name);
    return exporter === undefined ? [] : [`${name} (by CloudFormation stack ${exporter})`];
  });
  if (taken.length === 0) return;
  throw new CdkdError(
    'EXPORT_NAME_TAKEN',
    `Stack ${state.document.stackName} exports names a CloudFormation stack already exports: ${taken.join('; ')}.`,
    {
      hint: 'Give the output another Export name, or remove the export from the CloudFormation stack first.',
    },
  );
}

/**
 * An export of this stack that a CloudFormation stack imports may not be removed or changed,
 * as CloudFormation refuses it; ListImports is asked only for the exports `changes` names.
 */
export async function refuseOwnExportsCloudFormationImports(
  stackName: string,
  exports: ExportIndex,
  changes: ReadonlyMap<string, OwnExportChange>,
): Promise<void> {
  const inUse = (
    await Promise.all(
      [...changes].map(async ([name, change]) => ({
        name,
        change,
        importers: await exports.cloudFormationImporters(name),
      })),
    )
  ).filter((entry) => entry.importers.length > 0);
  if (inUse.length === 0) return;
  const lines = inUse.map(
    (entry) =>
      `Export ${entry.name} cannot be ${entry.change === 'removed' ? 'deleted' : 'updated'} as it is in use by CloudFormation stack${entry.importers.length > 1 ? 's' : ''} ${entry.importers.join(', ')}`,
  );
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${stackName} would remove or change exports CloudFormation stacks import: ${lines.join('; ')}.`,
    {
      hint: 'Update those CloudFormation stacks to stop importing the export (or import a new export name) first, then deploy this stack; nothing was changed.',
    },
  );
}

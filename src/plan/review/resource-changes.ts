import type { StatefulOutcome, StatefulVerdict } from '../guards/stateful-replace.js';
import { holdsMask } from '../property-diff.js';
import type { VerdictSource } from '../registry-schema.js';
import type { OperationKind, Plan, PlannedOperation, ReplacementCause } from '../types.js';
import { propertyChanges, type PropertyChange } from './property-changes.js';
import type { StackValues } from './values.js';

/** Why a resource is replaced, as a reviewer reads it. */
export interface ReplacementWhy {
  /** The top-level property forcing it; absent for a type change. */
  property?: string;
  /** The create-only path below the property, when only a nested part is create-only. */
  path?: string;
  why: 'create-only' | 'name-change' | 'type-change' | 'no-in-place-update';
  /** One line: `BucketName is create-only per the registry schema: a name change`. */
  text: string;
}

/** A property row, marked when its property forces the replacement. */
export type ReviewedProperty = PropertyChange & { forcesReplacement?: true };

/** One changed resource as `cdkd diff` shows it: its rows, what replaces it, what it costs in data. */
export interface ResourceChange {
  logicalId: string;
  kind: Exclude<OperationKind, 'no-op'>;
  type: string;
  previousType?: string;
  replacement: ReplacementWhy[];
  /** The stateful guard's verdict, for a replaced or deleted resource it judged. */
  dataLoss?: StatefulOutcome;
  properties: ReviewedProperty[];
}

/** Each changed resource of a plan, with old → new per property path. */
export function resourceChanges(
  plan: Plan,
  values: StackValues,
  options: { stateful?: readonly StatefulVerdict[]; contextLines?: number } = {},
): ResourceChange[] {
  const verdicts = new Map((options.stateful ?? []).map((v) => [v.logicalId, v.outcome]));
  return plan.operations.flatMap((op) => {
    if (op.kind === 'no-op') return [];
    const value = values[op.logicalId];
    const replacement = op.kind === 'replace' ? op.replacementCauses.map(explain) : [];
    const forcing = new Set(replacement.flatMap((r) => (r.property ? [r.property] : [])));
    const rows = propertyChanges(value?.old, value?.new, options.contextLines ?? 0);
    const properties: ReviewedProperty[] = [...rows, ...maskedOnly(op, rows, value?.old)].map((row) =>
      row.kind !== 'context' && forcing.has(String(row.path[0])) ? { ...row, forcesReplacement: true } : row,
    );
    const dataLoss = verdicts.get(op.logicalId);
    return [
      {
        logicalId: op.logicalId,
        kind: op.kind,
        type: op.type,
        ...(op.previousType !== undefined && { previousType: op.previousType }),
        replacement,
        ...(dataLoss !== undefined && { dataLoss }),
        properties,
      },
    ];
  });
}

/**
 * A masked property the plan counts as changed shows no row when both sides read `***`: it
 * gets one, masked, so a reviewer sees that a NoEcho value may have changed.
 */
function maskedOnly(
  op: PlannedOperation,
  rows: readonly PropertyChange[],
  old: Record<string, unknown> | undefined,
): PropertyChange[] {
  const shown = new Set(rows.map((row) => String(row.path[0])));
  return op.changedProperties
    .filter((name) => !shown.has(name) && holdsMask(old?.[name]))
    .map((name) => ({ path: [name], kind: 'changed', old: old?.[name], new: old?.[name], masked: true }));
}

const SOURCE: Record<VerdictSource, string> = {
  cdkd: "per cdkd's own rule for the type",
  registry: 'per the CloudFormation registry schema',
  bundled: 'per the bundled resource schema',
  none: '',
};

/** Why one cause replaces the resource. */
export function explain(cause: ReplacementCause): ReplacementWhy {
  switch (cause.kind) {
    case 'type-change':
      return { why: 'type-change', text: `the type changes from ${cause.from} to ${cause.to}` };
    case 'no-provider-update':
      return {
        property: cause.properties[0]!,
        why: 'no-in-place-update',
        text: `${cause.properties.join(', ')} cannot be updated in place by its provider`,
      };
    case 'property':
    case 'nested-property': {
      const where = cause.kind === 'nested-property' ? `${cause.property}.${cause.path}` : cause.property;
      const source = cause.source ? SOURCE[cause.source] : '';
      const named = /Name$/.test(cause.kind === 'nested-property' ? cause.path : cause.property);
      return {
        property: cause.property,
        ...(cause.kind === 'nested-property' && { path: cause.path }),
        why: named ? 'name-change' : 'create-only',
        text: `${where} is create-only${source ? ` ${source}` : ''}${named ? ': a name change' : ''}`,
      };
    }
  }
}

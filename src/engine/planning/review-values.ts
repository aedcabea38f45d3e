import type { Plan, StackValues } from '../../plan/index.js';
import type { PreparedTemplate } from '../../template/index.js';
import type { StackState } from '../../stack-state/index.js';
import type { ExportIndex } from '../export-index.js';
import { PENDING_PREFIX, stateResolver } from './state-resolver.js';

/** `{{cdkd:pending:Bucket.Arn}}` and the like, inside any string. */
const PENDING = new RegExp(`${PENDING_PREFIX.replace(/[{}]/g, '\\$&')}([^}]+)\\}\\}`, 'g');

/**
 * What a reviewer compares for each changed resource: the recorded properties, and the
 * template's evaluated from the masked template (NoEcho values `***`, as state will record
 * them), a value only the deploy can tell written `${Id.Attr}` as the CDK CLI writes it.
 */
export function reviewValues(
  plan: Plan,
  masked: PreparedTemplate,
  state: StackState,
  exports: ExportIndex,
): StackValues {
  const resolver = stateResolver(state, exports, { pending: true });
  const values: Record<string, StackValues[string]> = {};
  for (const op of plan.operations) {
    if (op.kind === 'no-op') continue;
    const record = op.kind === 'create' ? undefined : state.document.resources[op.logicalId];
    values[op.logicalId] = {
      type: op.type,
      ...(op.previousType !== undefined && { previousType: op.previousType }),
      ...(record && { old: record.properties }),
      ...(op.kind !== 'delete' && { new: desiredValue(masked, op.logicalId, resolver) }),
    };
  }
  return values;
}

function desiredValue(
  masked: PreparedTemplate,
  logicalId: string,
  resolver: ReturnType<typeof stateResolver>,
): Record<string, unknown> {
  try {
    return renamePending(masked.evaluateResourceProperties(logicalId, resolver)) as Record<string, unknown>;
  } catch {
    // Fn::Select over a value not made yet cannot evaluate before the deploy: shown as written.
    const properties = masked.template.resources.get(logicalId)?.properties;
    return (properties ?? {}) as Record<string, unknown>;
  }
}

function renamePending(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(PENDING, (_, id: string) => `\${${id}}`);
  if (Array.isArray(value)) return value.map(renamePending);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamePending(item)]));
  return value;
}

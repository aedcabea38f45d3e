import type { StatefulVerdict } from './guards/stateful-replace.js';
import { routeLabel } from './recreate-via.js';
import { DATA_LOSS_PREFIX, dataDetail, EMPTINESS_NOT_ESTABLISHED } from './render-data-loss.js';
import { renderImports } from './render-imports.js';
import type { OperationKind, Plan, PlannedOperation } from './types.js';
import { renderResourceChange } from './review/render-property-changes.js';
import type { ResourceChange } from './review/resource-changes.js';
import type { Paint } from './review/render-security.js';
import type { SecurityChanges } from './review/security-changes.js';

const SYMBOL: Record<OperationKind, string> = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  'no-op': '=',
};

export interface RenderOptions {
  /** Also list resources with nothing to do. */
  showUnchanged?: boolean;
  /** The stateful guard's verdicts, to mark rows that lose data or whose emptiness is unknown. */
  stateful?: readonly StatefulVerdict[];
  /** Each changed resource's properties old → new, listed under its row. */
  changes?: readonly ResourceChange[];
  /** How added and removed values are coloured (none by default). */
  paint?: Paint;
}

export type PlanSummary = Record<OperationKind, number>;

export function summarizePlan(plan: Plan): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0, 'no-op': 0 };
  for (const op of plan.operations) summary[op.kind] += 1;
  return summary;
}

function renderOperation(
  op: PlannedOperation,
  verdict: StatefulVerdict | undefined,
  change: ResourceChange | undefined,
  paint: Paint | undefined,
): string[] {
  const dataLoss = verdict?.outcome === 'data-loss' ? DATA_LOSS_PREFIX : '';
  const type = op.previousType ? `${op.previousType} → ${op.type}` : op.type;
  const routing = op.routing ? ` ${op.routing}` : '';
  // A --recreate-via-* row shows its move as the confirmation prompt does.
  const move = op.recreateVia && op.recreateFrom ? ` [${routeLabel(op.recreateFrom, op.recreateVia)}]` : '';
  const lines = [
    `${SYMBOL[op.kind].padEnd(3)} ${dataLoss}${op.logicalId} (${type})${move}${routing}: ${op.reason}`,
  ];
  if (op.replacedIfIdChanges) lines.push('    Replaced if the id changes');
  for (const note of op.notes) lines.push(`    ${note}`);
  if (verdict?.outcome === 'emptiness-unknown') lines.push(`    ${EMPTINESS_NOT_ESTABLISHED}`);
  const detail = verdict && dataDetail(verdict.outcome, op.logicalId);
  if (detail) lines.push(`    ${detail}`);
  if (change) lines.push(...renderResourceChange(change, paint));
  return lines;
}

/** `cdkd diff` text: one line per resource (`+` create, `~` update, `-/+` replace, `-` delete), then a summary. */
export function renderPlanText(plan: Plan, options: RenderOptions = {}): string {
  const verdicts = new Map((options.stateful ?? []).map((v) => [v.logicalId, v]));
  const changes = new Map((options.changes ?? []).map((c) => [c.logicalId, c]));
  const lines = plan.operations
    .filter((op) => options.showUnchanged || op.kind !== 'no-op')
    .flatMap((op) =>
      renderOperation(op, verdicts.get(op.logicalId), changes.get(op.logicalId), options.paint),
    );
  const s = summarizePlan(plan);
  lines.push(
    `${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ` +
      `${s['no-op']} unchanged`,
  );
  // After the summary: the first lines under a stack's name stay what changes.
  lines.push(...renderImports(plan));
  return `${lines.join('\n')}\n`;
}

/**
 * `cdkd diff --json`: the plan as a value, with its summary, where each import comes from and,
 * when given, each changed resource's properties and the security changes (docs/diff-json.md).
 */
export function renderPlanJson(
  plan: Plan,
  review: { changes?: readonly ResourceChange[]; security?: SecurityChanges } = {},
): string {
  const imports = plan.imports ? { imports: plan.imports } : {};
  const value = { summary: summarizePlan(plan), operations: plan.operations, ...imports, ...review };
  return `${JSON.stringify(value, null, 2)}\n`;
}

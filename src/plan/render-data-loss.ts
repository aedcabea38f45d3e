import type { StatefulOutcome } from './guards/stateful-replace.js';

/**
 * Spec 002 "The recreate prompt's three display states": how a resource about to be
 * destroyed and recreated shows its data. The wording is the spec's; `cdkd diff` and the
 * confirmation prompt both print it from here.
 */
export interface RecreateRow {
  logicalId: string;
  /** The type whose data is at stake (the old one, on a type change). */
  type: string;
  outcome: StatefulOutcome;
  /** Why it is recreated: the plan's reason. */
  reason: string;
  /** The provider move, e.g. `SDK → CC`, when the recreate changes it. */
  route?: string;
  /** For a reader replaced only if its target's id changes: the targets it reads. */
  readerOf?: readonly string[];
}

export const DATA_LOSS_PREFIX = '**DATA LOSS** ';

export const EMPTINESS_NOT_ESTABLISHED =
  'emptiness NOT established: the live probe failed, so cdkd does not know whether this resource holds data';

/** The line under a row that says what happens to its data, if anything is said. */
export function dataDetail(outcome: StatefulOutcome, logicalId: string): string | undefined {
  switch (outcome) {
    case 'data-loss':
      return `DATA: all data in ${logicalId} will be lost (no automatic data migration)`;
    case 'emptiness-unknown':
      return `UNKNOWN: if ${logicalId} holds data, the destroy + recreate loses it (no automatic data migration)`;
    default:
      return undefined;
  }
}

/** One row of the prompt's plan and its data line: DATA LOSS, UNKNOWN, or nothing for a measured-empty one. */
export function recreateRowLines(row: RecreateRow): string[] {
  const prefix = row.outcome === 'data-loss' ? DATA_LOSS_PREFIX : '';
  const route = row.route ? ` [${row.route}]` : '';
  const why = row.outcome === 'emptiness-unknown' ? EMPTINESS_NOT_ESTABLISHED : row.reason;
  const detail = dataDetail(row.outcome, row.logicalId);
  return [
    `    - ${prefix}${row.logicalId} (${row.type})${route} — ${why}`,
    ...(detail ? [`      ${detail}`] : []),
  ];
}

/** Whether a stack's recreates need the data-loss confirmation: one of them loses data for certain. */
export function needsDataLossConfirmation(rows: readonly RecreateRow[]): boolean {
  return rows.some((row) => row.outcome === 'data-loss');
}

const isReader = (row: RecreateRow) => (row.readerOf ?? []).length > 0;

/**
 * The plan the data-loss confirmation prints before it asks; readers that follow a recreated
 * target are listed under "Replaced if the id changes" (spec 002).
 */
export function renderDataLossPlan(stackName: string, rows: readonly RecreateRow[]): string {
  const readers = rows.filter(isReader);
  return [
    `${stackName}: this deploy destroys and recreates these resources:`,
    ...rows.filter((row) => !isReader(row)).flatMap(recreateRowLines),
    ...(readers.length > 0 ? ['  Replaced if the id changes:', ...readers.flatMap(recreateRowLines)] : []),
    '',
  ].join('\n');
}

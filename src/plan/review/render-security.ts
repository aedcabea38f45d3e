import { hasSecurityChanges, type SecurityChanges } from './security-changes.js';

/** How added and removed rows are coloured on a TTY (identity off one). */
export interface Paint {
  added(text: string): string;
  removed(text: string): string;
}

export const NO_PAINT: Paint = { added: (text) => text, removed: (text) => text };

const TABLES = [
  {
    title: 'IAM Statement Changes',
    rows: 'iamStatements',
    header: ['', 'Resource', 'Effect', 'Action', 'Principal', 'Condition'],
  },
  { title: 'IAM Policy Changes', rows: 'managedPolicies', header: ['', 'Resource', 'Managed Policy ARN'] },
  {
    title: 'Security Group Changes',
    rows: 'securityGroups',
    header: ['', 'Group', 'Dir', 'Protocol', 'Peer'],
  },
] as const;

/** The CDK CLI's security tables for the tables that have rows; empty when nothing changes. */
export function renderSecurityChanges(changes: SecurityChanges, paint: Paint = NO_PAINT): string {
  if (!hasSecurityChanges(changes)) return '';
  const parts = TABLES.filter((table) => changes[table.rows].length > 0).map(
    (table) => `${table.title}\n${renderTable([...table.header], changes[table.rows], paint)}`,
  );
  return `${parts.join('\n')}\n`;
}

/** A boxed table: header, then each row between rules; a cell's lines stack inside its row. */
export function renderTable(header: string[], rows: readonly string[][], paint: Paint = NO_PAINT): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) =>
    Math.max(...all.flatMap((row) => (row[column] ?? '').split('\n').map((line) => line.length))),
  );
  const rule = (left: string, middle: string, right: string) =>
    `${left}${widths.map((width) => '─'.repeat(width + 2)).join(middle)}${right}`;
  const lines = (row: readonly string[], colour: (text: string) => string) => {
    const cells = widths.map((_, column) => (row[column] ?? '').split('\n'));
    const height = Math.max(...cells.map((cell) => cell.length));
    return Array.from(
      { length: height },
      (_, line) =>
        `│${cells.map((cell, column) => ` ${colour((cell[line] ?? '').padEnd(widths[column]!))} `).join('│')}│`,
    );
  };
  const body = rows.map((row) =>
    lines(row, row[0] === '+' ? paint.added : row[0] === '-' ? paint.removed : (text) => text).join('\n'),
  );
  return [
    rule('┌', '┬', '┐'),
    ...lines(header, (text) => text),
    rule('├', '┼', '┤'),
    body.join(`\n${rule('├', '┼', '┤')}\n`),
    rule('└', '┴', '┘'),
  ]
    .filter((line) => line !== '')
    .join('\n');
}

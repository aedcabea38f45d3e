import { formatPath } from './property-changes.js';
import type { ResourceChange, ReviewedProperty } from './resource-changes.js';
import { NO_PAINT, type Paint } from './render-security.js';

/** A value on one line: strings quoted, objects and arrays as compact JSON. */
function show(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/**
 * The lines under a changed resource's plan row: why it is replaced, then each property path
 * old → new (`+` added, `-` removed, `~` changed, two spaces for context), the ones forcing
 * the replacement marked. Masked values show as the state records them (`***`).
 */
export function renderResourceChange(change: ResourceChange, paint: Paint = NO_PAINT): string[] {
  const lines = change.replacement.map((why) => `    replaced because ${why.text}`);
  for (const row of change.properties) lines.push(`    ${renderRow(row, paint)}`);
  return lines;
}

function renderRow(row: ReviewedProperty, paint: Paint): string {
  const path = formatPath(row.path);
  const masked = row.masked ? ' (NoEcho: masked, may have changed)' : '';
  const forces = row.forcesReplacement ? ' (forces replacement)' : '';
  switch (row.kind) {
    case 'added':
      return paint.added(`+ ${path}: ${show(row.new)}`) + masked + forces;
    case 'removed':
      return paint.removed(`- ${path}: ${show(row.old)}`) + masked + forces;
    case 'changed':
      return `~ ${path}: ${paint.removed(show(row.old))} → ${paint.added(show(row.new))}${masked}${forces}`;
    case 'context':
      return `  ${path}: ${show(row.new)}`;
  }
}

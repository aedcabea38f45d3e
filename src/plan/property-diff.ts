import { canonicalJson } from './property-hash.js';

/** The state's spelling of a NoEcho value (invariant 3): it can never equal the real value. */
export const MASKED_VALUE = '***';

export interface PropertyDiff {
  /** Top-level properties that differ. */
  changed: string[];
  /** Masked in the record, so not comparable; counted as changed only when nothing else differs. */
  masked: string[];
}

/** True when the value, or anything inside it, is the masked spelling of a NoEcho value. */
export function holdsMask(value: unknown): boolean {
  if (value === MASKED_VALUE) return true;
  if (Array.isArray(value)) return value.some(holdsMask);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsMask);
  return false;
}

/**
 * Which top-level properties differ between what was applied and what is desired. Called
 * only when the hashes differ, so if the only candidates are masked ones, they changed.
 */
export function diffProperties(
  recorded: Record<string, unknown>,
  desired: Record<string, unknown>,
): PropertyDiff {
  const names = [...new Set([...Object.keys(recorded), ...Object.keys(desired)])].sort();
  const changed: string[] = [];
  const masked: string[] = [];
  for (const name of names) {
    if (canonicalJson(recorded[name]) === canonicalJson(desired[name])) continue;
    (holdsMask(recorded[name]) ? masked : changed).push(name);
  }
  return changed.length > 0 ? { changed, masked } : { changed: masked, masked: [] };
}

/** The values at a dotted path (`*` = every element or map value), in document order. */
function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  const values = collect(value, segments);
  // Absent, [] and elements without the path all mean "not set".
  return values.every((v) => v === undefined) ? [] : values;
}

function collect(value: unknown, segments: readonly string[]): unknown[] {
  if (segments.length === 0) return [value];
  if (value === null || typeof value !== 'object') return [undefined];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    const items = Array.isArray(value) ? value : Object.values(value);
    return items.flatMap((item) => collect(item, rest));
  }
  return collect((value as Record<string, unknown>)[head], rest);
}

/**
 * Whether a nested create-only path (relative to its top-level property) differs. Elements
 * are compared in order, so adding an element that sets the path counts as a change.
 */
export function nestedPathChanged(recorded: unknown, desired: unknown, path: string): boolean {
  const segments = path.split('.');
  return canonicalJson(valuesAt(recorded, segments)) !== canonicalJson(valuesAt(desired, segments));
}

import { canonicalJson } from '../property-hash.js';
import { holdsMask } from '../property-diff.js';

/** A step into a value: an object key or an array index. */
export type PathStep = string | number;

/**
 * One line of a property-level diff. `context` rows are unchanged neighbours of a change
 * (`--context-lines`); `masked` rows hold a NoEcho value on either side, shown masked.
 */
export interface PropertyChange {
  path: PathStep[];
  kind: 'added' | 'removed' | 'changed' | 'context';
  old?: unknown;
  new?: unknown;
  masked?: true;
}

/** `Policies[0].PolicyDocument.Statement`: how a path is written in text and JSON. */
export function formatPath(path: readonly PathStep[]): string {
  return path
    .map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`))
    .join('');
}

/**
 * Old → new per property path: objects are compared key by key and arrays element by element
 * (matched by their longest common run, so an inserted element does not show every later one
 * as changed), down to the values that differ. `contextLines` unchanged neighbours of each
 * change in the same object or array are kept as context.
 */
export function propertyChanges(
  old: Record<string, unknown> | undefined,
  desired: Record<string, unknown> | undefined,
  contextLines = 0,
): PropertyChange[] {
  return diffValue(old ?? {}, desired ?? {}, [], contextLines);
}

function diffValue(old: unknown, desired: unknown, path: PathStep[], context: number): PropertyChange[] {
  if (same(old, desired)) return [];
  if (isObject(old) && isObject(desired)) return diffObject(old, desired, path, context);
  if (Array.isArray(old) && Array.isArray(desired)) return diffArray(old, desired, path, context);
  if (old === undefined) return [row(path, 'added', undefined, desired)];
  if (desired === undefined) return [row(path, 'removed', old, undefined)];
  return [row(path, 'changed', old, desired)];
}

function diffObject(
  old: Record<string, unknown>,
  desired: Record<string, unknown>,
  path: PathStep[],
  context: number,
): PropertyChange[] {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(desired)])].sort();
  const entries = keys.map((key) => ({
    changed: !same(old[key], desired[key]),
    rows: () => diffValue(old[key], desired[key], [...path, key], context),
    context: () => row([...path, key], 'context', old[key], desired[key]),
  }));
  return withContext(entries, context);
}

function diffArray(old: unknown[], desired: unknown[], path: PathStep[], context: number): PropertyChange[] {
  const entries: Entry[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    // A run of removed elements facing a run of added ones of the same length: changed in place.
    const paired = removed.length === added.length;
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const o = removed[i];
      const n = added[i];
      if (paired && o !== undefined && n !== undefined) {
        entries.push({ changed: true, rows: () => diffValue(old[o], desired[n], [...path, n], context) });
      } else {
        if (o !== undefined)
          entries.push({ changed: true, rows: () => [row([...path, o], 'removed', old[o], undefined)] });
        if (n !== undefined)
          entries.push({ changed: true, rows: () => [row([...path, n], 'added', undefined, desired[n])] });
      }
    }
    removed = [];
    added = [];
  };
  let o = 0;
  let n = 0;
  for (const [matchOld, matchNew] of commonRun(old, desired)) {
    while (o < matchOld) removed.push(o++);
    while (n < matchNew) added.push(n++);
    flush();
    const index = n;
    entries.push({
      changed: false,
      rows: () => [],
      context: () => row([...path, index], 'context', desired[index], desired[index]),
    });
    o++;
    n++;
  }
  while (o < old.length) removed.push(o++);
  while (n < desired.length) added.push(n++);
  flush();
  return withContext(entries, context);
}

interface Entry {
  changed: boolean;
  rows(): PropertyChange[];
  context?(): PropertyChange;
}

/** The changed entries' rows, each with up to `context` unchanged entries either side. */
function withContext(entries: readonly Entry[], context: number): PropertyChange[] {
  const changedAt = entries.flatMap((entry, index) => (entry.changed ? [index] : []));
  return entries.flatMap((entry, index) => {
    if (entry.changed) return entry.rows();
    const near = changedAt.some((at) => Math.abs(at - index) <= context);
    return near && entry.context ? [entry.context()] : [];
  });
}

/** Index pairs of the longest common subsequence of two arrays, compared as canonical JSON. */
function commonRun(old: readonly unknown[], desired: readonly unknown[]): Array<[number, number]> {
  const a = old.map(canonicalJson);
  const b = desired.map(canonicalJson);
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] =
        a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

function row(path: PathStep[], kind: PropertyChange['kind'], old: unknown, desired: unknown): PropertyChange {
  const masked = holdsMask(old) || holdsMask(desired);
  return {
    path,
    kind,
    ...(old !== undefined && { old }),
    ...(desired !== undefined && { new: desired }),
    ...(masked && { masked: true as const }),
  };
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

import type { JsonObject } from '../provider.js';

export interface PatchOperation {
  op: 'add' | 'remove';
  path: string;
  value?: unknown;
}

/**
 * The RFC 6902 patch from the previous desired state to the new one, per top-level
 * property: a changed property is set whole, so the result is exactly the new desired
 * value whatever defaults the live model holds below it. It is set with `add`, never
 * `replace`: a write-only property (a function's Code) is absent from the model Cloud
 * Control patches, where `replace` fails for want of a path and `add` sets it.
 */
export function desiredStatePatch(previous: JsonObject, next: JsonObject): PatchOperation[] {
  const operations: PatchOperation[] = [];
  for (const key of Object.keys(previous).sort()) {
    if (!Object.hasOwn(next, key) || next[key] === undefined) {
      if (previous[key] !== undefined) operations.push({ op: 'remove', path: pointer(key) });
    }
  }
  for (const key of Object.keys(next).sort()) {
    if (next[key] === undefined) continue;
    const unchanged =
      Object.hasOwn(previous, key) && previous[key] !== undefined && deepEqual(previous[key], next[key]);
    if (!unchanged) operations.push({ op: 'add', path: pointer(key), value: next[key] });
  }
  return operations;
}

/** A JSON pointer to a top-level key (RFC 6901 escapes `~` and `/`). */
function pointer(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && deepEqual((a as JsonObject)[key], (b as JsonObject)[key]),
  );
}

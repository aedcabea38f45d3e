import type { LiveResource } from '../providers/index.js';
import { MASK } from '../template/parameters.js';

/** ROLLBACK_REDACTED_BASELINE: a NoEcho-sourced value that cannot be read back from AWS. */
export class RedactedBaseline extends Error {
  constructor(readonly paths: string[]) {
    super(
      `the pre-deploy value of ${paths.join(', ')} came from a NoEcho parameter and is stored only as ${MASK}, and AWS cannot give it back; nothing was sent. Restore it with cdkd deploy --fix-forward and the old value.`,
    );
    this.name = 'RedactedBaseline';
  }
}

export interface Baseline {
  values: Record<string, unknown>;
  /** Masked paths whose value was taken from the live resource (left as AWS holds it). */
  keptAsLive: string[];
}

/**
 * The properties to send back: the journaled record, with every masked (NoEcho)
 * value replaced by what AWS holds now, so `***` is never sent (spec 001,
 * "NoEcho values are not reverted"). `readLive` is absent when there is no live
 * resource to read (a re-create), which makes any masked value unrecoverable.
 */
export async function baselineProperties(
  properties: Record<string, unknown>,
  readLive: (() => Promise<LiveResource | undefined>) | undefined,
): Promise<Baseline> {
  const masked = maskedPaths(properties, []);
  if (masked.length === 0) return { values: properties, keptAsLive: [] };
  const live = readLive ? await readLive().catch(() => undefined) : undefined;
  const missing = masked.filter((path) => live === undefined || valueAt(live.properties, path) === undefined);
  if (missing.length > 0) throw new RedactedBaseline(missing.map((path) => path.join('.')));
  const values = structuredClone(properties);
  for (const path of masked) setAt(values, path, valueAt(live!.properties, path));
  return { values, keptAsLive: masked.map((path) => path.join('.')) };
}

/** A value holding the mask anywhere (`user:***` from an Fn::Sub over a NoEcho parameter) is masked whole. */
function maskedPaths(value: unknown, path: string[]): string[][] {
  if (typeof value === 'string' && value.includes(MASK)) return [path];
  if (Array.isArray(value))
    return value.flatMap((item, index) => maskedPaths(item, [...path, String(index)]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => maskedPaths(item, [...path, key]));
  }
  return [];
}

function valueAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function setAt(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
}

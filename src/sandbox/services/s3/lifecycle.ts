import type { SandboxClock } from '../../clock/clock.js';
import { child, children, parseXml, text, type XmlValue } from '../../xml.js';
import type { ObjectVersion } from './model.js';
import type { BucketState, S3Store } from './store.js';

/**
 * Lifecycle expiration of noncurrent versions, as S3 runs it: once a day, at midnight UTC
 * (sandbox time), each enabled rule with a `NoncurrentVersionExpiration` deletes, under its
 * prefix, the noncurrent versions past the `NewerNoncurrentVersions` newest noncurrent ones
 * that have been noncurrent for `NoncurrentDays` (counted as S3 counts: from the moment a
 * newer version replaced it, rounded up to the next midnight UTC). Other actions, and rules
 * filtered by tags or object size, are kept but not run.
 */

const DAY_MS = 86_400_000;

export interface NoncurrentExpiration {
  prefix: string;
  days: number;
  /** Noncurrent versions kept whatever their age; undefined keeps none. */
  newer?: number;
}

/** The noncurrent-version expirations a stored lifecycle document asks for. */
export function noncurrentExpirations(document: string): NoncurrentExpiration[] {
  const configuration = parseXml(document).LifecycleConfiguration;
  return children(configuration, 'Rule').flatMap((rule) => {
    const action = child(rule, 'NoncurrentVersionExpiration');
    if (text(rule, 'Status') !== 'Enabled' || action === undefined) return [];
    const prefix = rulePrefix(rule);
    const days = Number(text(action, 'NoncurrentDays'));
    const newer = text(action, 'NewerNoncurrentVersions');
    if (prefix === undefined || !Number.isInteger(days) || days < 1) return [];
    return [{ prefix, days, ...(newer !== undefined && { newer: Number(newer) }) }];
  });
}

/** The rule's prefix (legacy `Prefix`, `Filter/Prefix`, `Filter/And/Prefix`); undefined for a tag or size filter. */
function rulePrefix(rule: XmlValue): string | undefined {
  const filter = child(rule, 'Filter');
  if (filter === undefined) return text(rule, 'Prefix') ?? '';
  const and = child(filter, 'And');
  const scope = and ?? filter;
  const other = ['Tag', 'ObjectSizeGreaterThan', 'ObjectSizeLessThan'].some(
    (name) => child(scope, name) !== undefined,
  );
  return other ? undefined : (text(scope, 'Prefix') ?? '');
}

/** The first midnight UTC at or after `time`. */
function midnightAfter(time: number): number {
  return Math.ceil(time / DAY_MS) * DAY_MS;
}

/** Of one key's versions (newest first), those the expiration deletes at `now`. */
export function expiredVersions(
  versions: readonly ObjectVersion[],
  expiration: NoncurrentExpiration,
  now: number,
): ObjectVersion[] {
  const expired: ObjectVersion[] = [];
  // versions[0] is current; each older one became noncurrent when the one before it was written.
  for (let index = 1; index < versions.length; index += 1) {
    const noncurrentSince = Date.parse(versions[index - 1]!.lastModified);
    const due = midnightAfter(noncurrentSince + expiration.days * DAY_MS);
    const newerNoncurrent = index - 1;
    if (newerNoncurrent >= (expiration.newer ?? 0) && due <= now) expired.push(versions[index]!);
  }
  return expired;
}

/** Runs every bucket's noncurrent expirations once, at `now`. */
export async function runLifecycle(store: S3Store, now: number): Promise<number> {
  let removed = 0;
  for (const name of store.bucketNames()) {
    const state = store.bucket(name);
    const document = state?.record.documents?.lifecycle;
    if (!state || document === undefined) continue;
    removed += await expireBucket(store, state, noncurrentExpirations(document), now);
  }
  return removed;
}

async function expireBucket(
  store: S3Store,
  state: BucketState,
  expirations: readonly NoncurrentExpiration[],
  now: number,
): Promise<number> {
  let removed = 0;
  for (const [key, versions] of [...state.objects]) {
    const doomed = new Set(
      expirations
        .filter((expiration) => key.startsWith(expiration.prefix))
        .flatMap((expiration) => expiredVersions(versions, expiration, now)),
    );
    for (const version of doomed) await store.removeVersion(state, version);
    removed += doomed.size;
  }
  return removed;
}

/** Arms the nightly lifecycle run on the sandbox clock, re-armed after each run. */
export function scheduleLifecycle(clock: SandboxClock, store: S3Store): void {
  const arm = (after: number): void => {
    const due = midnightAfter(after + 1);
    clock.at(due, async () => {
      // Next after now: a clock moved days ahead runs once, late, as after an outage.
      arm(Math.max(due, clock.now()));
      await runLifecycle(store, clock.now());
    });
  };
  arm(clock.now());
}

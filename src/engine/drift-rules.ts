import { holdsMask } from '../plan/property-diff.js';
import { canonicalJson } from '../plan/index.js';

/** One property AWS holds otherwise than cdkd applied it. */
export interface PropertyDrift {
  property: string;
  /** What cdkd applied (the record's properties); undefined when it applied nothing there. */
  recorded: unknown;
  /** What AWS holds now; undefined when it holds nothing there. */
  live: unknown;
}

/** Scalars compared as text: a read gives `'30'` where the template applied `30`. */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalized(inner)]));
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/**
 * The properties cdkd applied that AWS no longer holds as applied, one per top-level
 * property. Only what cdkd applied counts: what the template left to AWS's defaults is
 * not drift. A masked (NoEcho) value cannot be compared and is passed over.
 */
export function driftOf(applied: Record<string, unknown>, live: Record<string, unknown>): PropertyDrift[] {
  return Object.keys(applied)
    .sort()
    .filter((property) => !holdsMask(applied[property]))
    .filter(
      (property) =>
        canonicalJson(normalized(applied[property])) !== canonicalJson(normalized(live[property])),
    )
    .map((property) => ({ property, recorded: applied[property], live: live[property] }));
}

/**
 * What `drift --revert` sends: the applied properties, except that a numeric 0 log-group
 * retention, cdkd's own read-back spelling of "never expire" (taken in by `drift --accept`),
 * is sent as no retention, which removes a retention set since (spec 002, "Log group retention").
 */
export function revertProperties(type: string, applied: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'AWS::Logs::LogGroup' || applied.RetentionInDays !== 0) return applied;
  const sent = { ...applied };
  delete sent.RetentionInDays;
  return sent;
}

/** What `drift --accept` records as applied: the live value of each drifted property. */
export function acceptedProperties(
  applied: Record<string, unknown>,
  drifts: readonly PropertyDrift[],
): Record<string, unknown> {
  const accepted = { ...applied };
  for (const { property, live } of drifts) {
    if (live === undefined) delete accepted[property];
    else accepted[property] = live;
  }
  return accepted;
}

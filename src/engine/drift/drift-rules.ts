import { holdsMask } from '../../plan/property-diff.js';
import { canonicalJson } from '../../plan/index.js';
import { containsDynamicReference } from '../../template/index.js';
import type { PropertyDrift } from '../../messages/index.js';

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
 * not drift. A masked (NoEcho) value cannot be compared and is passed over, as is a
 * write-only property (`writeOnly`: dotted paths, `*` for any element or member), which no
 * read returns: as in CloudFormation's drift detection, it is not compared. So is a property
 * applied from a dynamic reference (`{{resolve:secretsmanager:...}}`): the record holds the
 * reference, not the value, and printing the live value would disclose the secret.
 */
export function driftOf(
  applied: Record<string, unknown>,
  live: Record<string, unknown>,
  writeOnly: readonly string[] = [],
): PropertyDrift[] {
  const paths = writeOnly.map((path) => path.split('.'));
  return comparedProperties(applied, writeOnly)
    .filter((property) => {
      const stripped = paths
        .filter((path) => path.length > 1 && path[0] === property)
        .reduce((value, path) => withoutPath(value, path.slice(1)), applied[property]);
      const compared = stripped !== applied[property] && isEmptied(stripped) ? undefined : stripped;
      return canonicalJson(normalized(compared)) !== canonicalJson(normalized(live[property]));
    })
    .map((property) => ({ property, recorded: applied[property], live: live[property] }));
}

/** The properties of `applied` that `driftOf` compares: not masked, not a secret reference, not write-only whole. */
export function comparedProperties(
  applied: Record<string, unknown>,
  writeOnly: readonly string[] = [],
): string[] {
  return Object.keys(applied)
    .sort()
    .filter((property) => !holdsMask(applied[property]) && !containsDynamicReference(applied[property]))
    .filter((property) => !writeOnly.includes(property));
}

/** `value` without what `path` names inside it (`*`: every element or member). */
function withoutPath(value: unknown, path: readonly string[]): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(value)) {
    return head === '*' ? (rest.length === 0 ? [] : value.map((item) => withoutPath(item, rest))) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]): Array<[string, unknown]> => {
      if (head !== '*' && key !== head) return [[key, inner]];
      return rest.length === 0 ? [] : [[key, withoutPath(inner, rest)]];
    }),
  );
}

/** An object left with nothing once its write-only parts are gone: AWS holds none of it to read. */
function isEmptied(value: unknown): boolean {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0
  );
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

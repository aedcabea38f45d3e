import {
  isKnownType,
  nestedReplacementPathsOf,
  ownReplacementRule,
  type OwnRuleLookup,
  replacementOf,
} from '../resource-types/index.js';

/**
 * What the CloudFormation registry (`cloudformation:DescribeType`) said about one type,
 * fetched by the engine before planning so the plan itself never calls AWS.
 * `unavailable`: the call was denied or failed, or the schema could not be read (the engine
 * has warned); `type-not-found`: the registry does not know the type (a private or
 * third-party type not activated here).
 */
export type RegistryAnswer =
  { kind: 'schema'; schema: RegistrySchema } | { kind: 'type-not-found' } | { kind: 'unavailable' };

/** The replacement facts of a registry schema, in the bundled index's terms. */
export interface RegistrySchema {
  /** Top-level create-only properties. */
  createOnly: readonly string[];
  /** Create-only paths below a top-level property, dotted (`Prop.Inner.*.Leaf`). */
  nested: readonly string[];
  /** Top-level properties with a conditionally create-only part. */
  conditional: readonly string[];
  /** Write-only paths (`writeOnlyProperties`), dotted: what no read returns, so drift passes over. */
  writeOnly: readonly string[];
}

/** Where a property's replacement verdict came from. */
export type VerdictSource = 'cdkd' | 'registry' | 'bundled' | 'none';

export interface PropertyVerdict {
  verdict: 'yes' | 'maybe' | 'no';
  /** Nested create-only paths below the property, relative to it. */
  nestedPaths: readonly string[];
  source: VerdictSource;
}

/**
 * Spec 002 ("When the auto-route needs a recreate"): cdkd's own rule first; else the type's
 * registry schema; else the bundled schema index (the registry was not asked, denied the
 * call, or does not know the type); else, for a type in neither, in place.
 */
export function propertyVerdict(
  type: string,
  property: string,
  registry: RegistryAnswer | undefined,
  ownRule: OwnRuleLookup = ownReplacementRule,
): PropertyVerdict {
  const own = ownRule(type, property);
  if (own !== undefined)
    return { verdict: own === 'replace' ? 'yes' : 'no', nestedPaths: [], source: 'cdkd' };
  if (registry?.kind === 'schema') {
    const { createOnly, nested, conditional } = registry.schema;
    const prefix = `${property}.`;
    return {
      verdict: createOnly.includes(property) ? 'yes' : conditional.includes(property) ? 'maybe' : 'no',
      nestedPaths: nested.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length)),
      source: 'registry',
    };
  }
  if (isKnownType(type)) {
    const verdict = replacementOf(type, property);
    return {
      verdict: verdict === 'unknown' ? 'no' : verdict,
      nestedPaths: nestedReplacementPathsOf(type, property),
      source: 'bundled',
    };
  }
  return { verdict: 'no', nestedPaths: [], source: 'none' };
}

/**
 * Whether the registry's verdict is worth a call: some changed property has no own rule.
 * A `Custom::*` name is the template's own, so the registry never holds it.
 */
export function needsRegistry(
  type: string,
  changedProperties: readonly string[],
  ownRule: OwnRuleLookup = ownReplacementRule,
): boolean {
  if (type.startsWith('Custom::')) return false;
  return changedProperties.some((property) => ownRule(type, property) === undefined);
}

const PROPERTIES_POINTER = '/properties/';

/**
 * The replacement facts of a registry schema document (DescribeType's `Schema`): its
 * `createOnlyProperties` and `conditionalCreateOnlyProperties`, and its
 * `writeOnlyProperties` for drift, JSON pointers such as
 * `/properties/Name`, deeper ones naming a path inside a property (`*` for any element).
 * Undefined for a document that is not a schema.
 */
export function parseRegistrySchema(document: string): RegistrySchema | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const schema = parsed as Record<string, unknown>;
  if (typeof schema.properties !== 'object' || schema.properties === null) return undefined;
  const paths = (key: string): string[][] =>
    (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])
      .filter((p): p is string => typeof p === 'string' && p.startsWith(PROPERTIES_POINTER))
      .map((p) => p.slice(PROPERTIES_POINTER.length).split('/').map(unescapePointer))
      .filter((segments) => segments[0] !== '');
  const createOnly = paths('createOnlyProperties');
  const top = createOnly.filter((s) => s.length === 1).map((s) => s[0] as string);
  return {
    createOnly: [...new Set(top)].sort(),
    nested: [
      ...new Set(
        createOnly.filter((s) => s.length > 1 && !top.includes(s[0] as string)).map((s) => s.join('.')),
      ),
    ].sort(),
    conditional: [...new Set(paths('conditionalCreateOnlyProperties').map((s) => s[0] as string))].sort(),
    writeOnly: [...new Set(paths('writeOnlyProperties').map((s) => s.join('.')))].sort(),
  };
}

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';
import { CdkdError } from '../errors.js';
import { statefulTableVerdict, type Statefulness } from './statefulness.js';

/**
 * One resource type as `scripts/build-resource-index.mjs` writes it into
 * `generated/resource-index.json`. Empty lists and absent facts are omitted there.
 */
interface IndexEntry {
  /** Every property name the schema knows. */
  props: string[];
  required?: string[];
  /** One value-kind character per name of `props`, in its order (see PropertyKind). */
  kinds?: string;
  /** Top-level properties whose change replaces the resource (`causesReplacement: 'yes'`). */
  replace?: string[];
  /** Top-level properties whose change may replace it, depending on the values (`'maybe'`). */
  maybe?: string[];
  /** Dotted paths below an in-place property whose change replaces (`*` = any element). */
  nested?: string[];
  /** Fn::GetAtt attribute names (the schema's read-only properties). */
  attrs?: string[];
  /** Cloud Control identifier properties. */
  id?: string[];
  /** What Ref returns, where it differs from `id`. */
  refId?: string[];
  arn?: string;
  /** The service spec's own `isStateful` flag; cdkd's verdict is `statefulnessOf`. */
  stateful?: true;
  /** The property holding the resource's tags. */
  tags?: string;
}

/**
 * What a top-level property's value must be, where the schema is sure: `s` a string (a number
 * or boolean is taken too), `n` a number, `b` a boolean, `a` a list, `l` a list of strings,
 * `t` a list of tags (`{ Key, Value }`), `o` an object.
 */
export type PropertyKind = 's' | 'n' | 'b' | 'a' | 'l' | 't' | 'o';

/** What planning and the providers know about a resource type. */
export interface ResourceSchema {
  type: string;
  properties: readonly string[];
  requiredProperties: readonly string[];
  /** The value kind of each property the schema is sure of. */
  propertyKinds: ReadonlyMap<string, PropertyKind>;
  replacementProperties: readonly string[];
  conditionalReplacementProperties: readonly string[];
  nestedReplacementPaths: readonly string[];
  attributes: readonly string[];
  primaryIdentifier: readonly string[];
  refIdentifier: readonly string[];
  arnTemplate: string | undefined;
  specStateful: boolean;
  tagProperty: string | undefined;
}

/** The schema's verdict on changing one top-level property. */
export type ReplacementVerdict = 'yes' | 'maybe' | 'no' | 'unknown';

const INDEX_PATH = join(PACKAGE_ROOT, 'generated', 'resource-index.json');

/**
 * The index as written: a JSON object whose every type sits on a line of its own
 * (`"AWS::SNS::Topic":{...},`), after a first line with its version and source. A deploy
 * decodes and parses only the lines of the types it uses, not all 1,800 (parsing the
 * whole 716 KB took about 10 ms of every deploy): the file stays bytes, searched for the
 * type's line.
 */
interface IndexBytes {
  bytes: Buffer;
  source: string;
}

let index: IndexBytes | undefined;
const schemas = new Map<string, ResourceSchema>();

function indexBytes(): IndexBytes {
  if (index) return index;
  let bytes: Buffer;
  try {
    bytes = readFileSync(INDEX_PATH);
  } catch (error) {
    throw new CdkdError('RESOURCE_INDEX_MISSING', `The resource schema index ${INDEX_PATH} is missing.`, {
      hint: 'Run npm run build (it generates generated/resource-index.json).',
      cause: error,
    });
  }
  const header = headerOf(lineAt(bytes, 0));
  if (!header) {
    throw new CdkdError('RESOURCE_INDEX_INVALID', `The resource schema index ${INDEX_PATH} is not valid.`, {
      hint: 'Run npm run build to regenerate it.',
    });
  }
  index = { bytes, source: header.source };
  return index;
}

/** The text from `start` to the end of its line. */
function lineAt(bytes: Buffer, start: number): string {
  const end = bytes.indexOf(0x0a, start);
  return bytes.toString('utf8', start, end < 0 ? bytes.length : end);
}

/** The first line, `{"version":1,"source":"...","types":{`, closed and read. */
function headerOf(line: string): { source: string } | undefined {
  try {
    const header = JSON.parse(`${line}}}`) as { version?: unknown; source?: unknown };
    return header.version === 1 && typeof header.source === 'string' ? { source: header.source } : undefined;
  } catch {
    return undefined;
  }
}

function entryOf(type: string): IndexEntry | undefined {
  const { bytes } = indexBytes();
  const key = Buffer.from(`\n${JSON.stringify(type)}:`);
  const at = bytes.indexOf(key);
  if (at < 0) return undefined;
  const line = lineAt(bytes, at + key.length);
  return JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as IndexEntry;
}

/** The schema of a type, or undefined for one the index does not know (Custom::*, a very new type). */
export function schemaFor(type: string): ResourceSchema | undefined {
  const known = schemas.get(type);
  if (known) return known;
  const entry = entryOf(type);
  if (!entry) return undefined;
  const schema: ResourceSchema = {
    type,
    properties: entry.props,
    requiredProperties: entry.required ?? [],
    propertyKinds: propertyKinds(entry),
    replacementProperties: entry.replace ?? [],
    conditionalReplacementProperties: entry.maybe ?? [],
    nestedReplacementPaths: entry.nested ?? [],
    attributes: entry.attrs ?? [],
    primaryIdentifier: entry.id ?? [],
    refIdentifier: entry.refId ?? entry.id ?? [],
    arnTemplate: entry.arn,
    specStateful: entry.stateful === true,
    tagProperty: entry.tags,
  };
  schemas.set(type, schema);
  return schema;
}

const KINDS: ReadonlySet<string> = new Set(['s', 'n', 'b', 'a', 'l', 't', 'o']);

function propertyKinds(entry: IndexEntry): Map<string, PropertyKind> {
  const kinds = new Map<string, PropertyKind>();
  entry.props.forEach((name, i) => {
    const kind = entry.kinds?.[i];
    if (kind !== undefined && KINDS.has(kind)) kinds.set(name, kind as PropertyKind);
  });
  return kinds;
}

export function isKnownType(type: string): boolean {
  return schemaFor(type) !== undefined;
}

/** All types the index knows, sorted. */
export function knownTypes(): string[] {
  return Object.keys(
    (JSON.parse(indexBytes().bytes.toString('utf8')) as { types: Record<string, IndexEntry> }).types,
  );
}

/** The spec package and version the index was built from. */
export function indexSource(): string {
  return indexBytes().source;
}

/** Whether changing `property` (top-level) replaces a resource of `type`. */
export function replacementOf(type: string, property: string): ReplacementVerdict {
  const schema = schemaFor(type);
  if (!schema) return 'unknown';
  if (schema.replacementProperties.includes(property)) return 'yes';
  if (schema.conditionalReplacementProperties.includes(property)) return 'maybe';
  return 'no';
}

/** Nested paths below `property` whose change replaces the resource, relative to it. */
export function nestedReplacementPathsOf(type: string, property: string): string[] {
  const prefix = `${property}.`;
  return (schemaFor(type)?.nestedReplacementPaths ?? [])
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length));
}

/**
 * cdkd's verdict: spec 002's stateful-type list where it names the type, else the
 * service spec's flag. `conditional` types (S3 buckets, log groups) are stateful
 * unless an emptiness probe or retention rule settles otherwise.
 */
export function statefulnessOf(type: string): Statefulness {
  return statefulTableVerdict(type) ?? (schemaFor(type)?.specStateful ? 'stateful' : 'not-stateful');
}

/** True for stateful and conditionally stateful types (no probe result counts as data-bearing). */
export function isStateful(type: string): boolean {
  return statefulnessOf(type) !== 'not-stateful';
}

export function attributesOf(type: string): readonly string[] {
  return schemaFor(type)?.attributes ?? [];
}

export function primaryIdentifierOf(type: string): readonly string[] {
  return schemaFor(type)?.primaryIdentifier ?? [];
}

// Builds generated/resource-index.json from @aws-cdk/aws-service-spec.
// The spec database costs ~1 s and ~180 MB to load, so cdkd never loads it at run time:
// this keeps, per resource type, only what planning and the providers read.
// Read by src/resource-types/schemas.ts; the field names are documented there.
// Usage: node scripts/build-resource-index.mjs [output file] (tests write elsewhere).
import { dirname } from 'node:path';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadAwsServiceSpec } from '@aws-cdk/aws-service-spec';

const started = Date.now();
const require = createRequire(import.meta.url);
const specVersion = JSON.parse(
  readFileSync(require.resolve('@aws-cdk/aws-service-spec/package.json'), 'utf8'),
).version;
const db = await loadAwsServiceSpec();

const sorted = (names) => [...new Set(names)].sort();

/**
 * Paths below a top-level property whose change replaces the resource (`causesReplacement: 'yes'`
 * inside a type definition). `*` stands for any array element or map value.
 */
function nestedReplacementPaths(type, prefix, seen) {
  switch (type.type) {
    case 'array':
    case 'map':
      return nestedReplacementPaths(type.element, `${prefix}.*`, seen);
    case 'union':
      return type.types.flatMap((t) => nestedReplacementPaths(t, prefix, seen));
    case 'ref': {
      const id = type.reference.$ref;
      // Recursive type definitions (JSON-schema-like shapes) would never end.
      if (seen.has(id)) return [];
      const definition = db.get('typeDefinition', id);
      const inner = new Set(seen).add(id);
      return Object.entries(definition.properties).flatMap(([name, property]) =>
        property.causesReplacement === 'yes'
          ? [`${prefix}.${name}`]
          : nestedReplacementPaths(property.type, `${prefix}.${name}`, inner),
      );
    }
    default:
      return [];
  }
}

/**
 * A top-level property's value kind, one character, where the schema is sure of it:
 * `s` string (CloudFormation also takes a number or boolean there), `n` number, `b` boolean,
 * `a` list, `l` list of strings, `t` list of tags, `o` object; `-` where it is not (JSON,
 * unions, a type that changed over time).
 */
function valueKind(property) {
  if (property.previousTypes?.length) return '-';
  switch (property.type.type) {
    case 'string':
    case 'date-time':
      return 's';
    case 'number':
    case 'integer':
      return 'n';
    case 'boolean':
      return 'b';
    case 'array':
      return { string: 'l', tag: 't' }[property.type.element.type] ?? 'a';
    case 'map':
    case 'ref':
    case 'tag':
      return 'o';
    default:
      return '-';
  }
}

function indexEntry(resource) {
  const properties = Object.entries(resource.properties);
  const names = (predicate) => sorted(properties.filter(([, p]) => predicate(p)).map(([n]) => n));
  const replace = names((p) => p.causesReplacement === 'yes');
  const nested = sorted([
    ...properties
      .filter(([, p]) => p.causesReplacement !== 'yes')
      .flatMap(([name, p]) => nestedReplacementPaths(p.type, name, new Set())),
    ...(resource.additionalReplacementProperties ?? []).map((path) => path.join('.')),
  ]).filter((path) => !replace.includes(path.split('.')[0]));

  const props = sorted(properties.map(([n]) => n));
  const entry = { props };
  const put = (key, value) => {
    if (Array.isArray(value) ? value.length > 0 : value !== undefined) entry[key] = value;
  };
  put(
    'required',
    names((p) => p.required === true),
  );
  // One character per name of `props`, in its order (see valueKind).
  put('kinds', props.map((name) => valueKind(resource.properties[name])).join('') || undefined);
  put('replace', replace);
  put(
    'maybe',
    names((p) => p.causesReplacement === 'maybe'),
  );
  put('nested', nested);
  put('attrs', sorted(Object.keys(resource.attributes)));
  // Attributes that are lists (a VPC's Ipv6CidrBlocks): the sandbox fakes them as lists.
  put(
    'listAttrs',
    sorted(
      Object.entries(resource.attributes)
        .filter(([, a]) => a.type.type === 'array')
        .map(([n]) => n),
    ),
  );
  put('id', resource.primaryIdentifier);
  // Only where Ref differs from the Cloud Control identifier.
  put('refId', resource.cfnRefIdentifier);
  put('arn', resource.arnTemplate);
  put('stateful', resource.isStateful === true ? true : undefined);
  put('tags', resource.tagInformation?.tagPropertyName);
  return entry;
}

const types = {};
for (const resource of [...db.all('resource')].sort((a, b) =>
  a.cloudFormationType.localeCompare(b.cloudFormationType),
)) {
  types[resource.cloudFormationType] = indexEntry(resource);
}

const source = `@aws-cdk/aws-service-spec@${specVersion}`;
const outFile =
  process.argv[2] ?? fileURLToPath(new URL('../generated/resource-index.json', import.meta.url));
mkdirSync(dirname(outFile), { recursive: true });
// Still one JSON object, but each type on a line of its own: cdkd parses only the lines of
// the types it meets (src/resource-types/schemas.ts reads it so).
const lines = Object.entries(types).map(
  ([type, entry]) => `${JSON.stringify(type)}:${JSON.stringify(entry)}`,
);
const json = `{"version":1,"source":${JSON.stringify(source)},"types":{\n${lines.join(',\n')}\n}}\n`;
writeFileSync(outFile, json);
console.log(
  `${outFile}: ${Object.keys(types).length} types, ` +
    `${(json.length / 1024).toFixed(0)} KiB, ${Date.now() - started} ms`,
);

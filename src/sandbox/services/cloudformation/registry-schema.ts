import type { SandboxTypeSchema } from '../../resource-index.js';

/** JSON-schema shapes for the index's value kinds; `-` (not sure) gets none. */
const KIND_SHAPES: Record<string, Record<string, unknown>> = {
  s: { type: 'string' },
  n: { type: 'number' },
  b: { type: 'boolean' },
  a: { type: 'array' },
  l: { type: 'array', items: { type: 'string' } },
  t: { type: 'array', items: { $ref: '#/definitions/Tag' } },
  o: { type: 'object' },
};

/** A dotted index path (`Config.Items.*.Key`) as the registry's JSON pointer. */
function pointer(path: string): string {
  return `/properties/${path
    .split('.')
    .map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1'))
    .join('/')}`;
}

/**
 * A resource type's registry schema document, as DescribeType returns it in `Schema`, built
 * from the sandbox's resource index: the property names and kinds, and the create-only,
 * conditionally create-only, read-only and identifier properties as JSON pointers; the
 * write-only ones are those the sandbox's Cloud Control read leaves out (`writeOnly`).
 */
export function registrySchemaDocument(
  typeName: string,
  schema: SandboxTypeSchema,
  writeOnly: readonly string[] = [],
): string {
  const kinds = schema.kinds ?? '';
  const properties = Object.fromEntries(
    schema.props.map((name, i) => [name, { ...KIND_SHAPES[kinds[i] ?? '-'] }]),
  );
  const document = {
    typeName,
    description: `Resource Type definition for ${typeName}`,
    definitions: {
      Tag: {
        type: 'object',
        properties: { Key: { type: 'string' }, Value: { type: 'string' } },
        required: ['Key', 'Value'],
        additionalProperties: false,
      },
    },
    properties,
    additionalProperties: false,
    ...(schema.required?.length ? { required: schema.required } : {}),
    createOnlyProperties: [...(schema.replace ?? []), ...(schema.nested ?? [])].map(pointer),
    ...(schema.maybe?.length ? { conditionalCreateOnlyProperties: schema.maybe.map(pointer) } : {}),
    readOnlyProperties: (schema.attrs ?? []).map(pointer),
    ...(writeOnly.length > 0 ? { writeOnlyProperties: writeOnly.map(pointer) } : {}),
    primaryIdentifier: (schema.id ?? []).map(pointer),
  };
  return JSON.stringify(document);
}

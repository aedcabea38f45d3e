import { SandboxError } from '../../../errors.js';
import { sandboxSchemaFor } from '../../../resource-index.js';
import { el } from '../../../xml.js';
import { registrySchemaDocument } from '../registry-schema.js';
import type { CfnHandler } from './call.js';

/** When the sandbox's registry says each public type was registered. */
const REGISTERED = '2019-11-18T00:00:00.000Z';

/**
 * The registry: DescribeType answers a resource type from the sandbox's resource index (the
 * one its Cloud Control serves), so a client reads the same create-only properties cdkd's
 * bundled index holds.
 */
export const describeType: CfnHandler = async (call) => {
  const { params, request, engine } = call;
  const typeName = describedTypeName(params.optional('TypeName'), params.optional('Arn'));
  const schema = sandboxSchemaFor(typeName);
  const kind = params.optional('Type') ?? 'RESOURCE';
  if (kind !== 'RESOURCE' || !schema) {
    throw new SandboxError('TypeNotFoundException', `The type '${typeName}' cannot be found.`, 404);
  }
  const arn = `arn:aws:cloudformation:${request.region}::type/resource/${typeName.replaceAll('::', '-')}`;
  const writeOnly = engine.deps.context.resources.get(typeName)?.writeOnlyProperties;
  return [
    el('Arn', arn),
    el('Type', 'RESOURCE'),
    el('TypeName', typeName),
    el('DefaultVersionId', '00000001'),
    el('IsDefaultVersion', true),
    el('Description', `Resource Type definition for ${typeName}`),
    el('Schema', registrySchemaDocument(typeName, schema, writeOnly)),
    el('ProvisioningType', 'FULLY_MUTABLE'),
    el('DeprecatedStatus', 'LIVE'),
    el('Visibility', 'PUBLIC'),
    el('LastUpdated', REGISTERED),
    el('TimeCreated', REGISTERED),
  ];
};

/** The type named by `TypeName` (with `Type`), or by `Arn`; AWS asks for one of the two. */
function describedTypeName(typeName: string | undefined, arn: string | undefined): string {
  if (typeName) return typeName;
  const fromArn = arn ? /:type\/resource\/(.+)$/.exec(arn)?.[1] : undefined;
  if (fromArn) return fromArn.replaceAll('-', '::');
  throw new SandboxError('ValidationError', 'Specify either TypeName and Type, or Arn.', 400);
}

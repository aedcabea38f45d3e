import { SandboxError } from '../../errors.js';
import { queryAction, queryCodec, queryParams, queryResult } from '../../protocols/query.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { el } from '../../xml.js';
import { registrySchemaDocument } from './registry-schema.js';

const XMLNS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
const VERSION = '2010-05-15';
/** When the sandbox's registry says each public type was registered. */
const REGISTERED = '2019-11-18T00:00:00.000Z';

/**
 * CloudFormation over the query protocol, for the registry only: DescribeType answers a
 * resource type from the sandbox's resource index (the one its Cloud Control serves), so a
 * client reads the same create-only properties cdkd's bundled index holds.
 */
export const createCloudFormationService: ServiceModuleFactory = async (context) => ({
  name: 'cloudformation',
  codec: queryCodec,
  operation: queryAction,
  isMutating: () => false,
  async handle(request, operation) {
    if (operation !== 'DescribeType') {
      throw new SandboxError(
        'InvalidAction',
        `Could not find operation ${operation} for version ${VERSION}`,
        400,
      );
    }
    const params = queryParams(request);
    const typeName = describedTypeName(params);
    const schema = sandboxSchemaFor(typeName);
    const kind = params.get('Type') ?? 'RESOURCE';
    if (kind !== 'RESOURCE' || !schema) {
      throw new SandboxError('TypeNotFoundException', `The type '${typeName}' cannot be found.`, 404);
    }
    const arn = `arn:aws:cloudformation:${request.region}::type/resource/${typeName.replaceAll('::', '-')}`;
    return queryResult(
      operation,
      XMLNS,
      [
        el('Arn', arn),
        el('Type', 'RESOURCE'),
        el('TypeName', typeName),
        el('DefaultVersionId', '00000001'),
        el('IsDefaultVersion', true),
        el('Description', `Resource Type definition for ${typeName}`),
        el(
          'Schema',
          registrySchemaDocument(typeName, schema, context.resources.get(typeName)?.writeOnlyProperties),
        ),
        el('ProvisioningType', 'FULLY_MUTABLE'),
        el('DeprecatedStatus', 'LIVE'),
        el('Visibility', 'PUBLIC'),
        el('LastUpdated', REGISTERED),
        el('TimeCreated', REGISTERED),
      ],
      request,
    );
  },
  inventory: () => ({}),
});

/** The type named by `TypeName` (with `Type`), or by `Arn`; AWS asks for one of the two. */
function describedTypeName(params: URLSearchParams): string {
  const typeName = params.get('TypeName');
  if (typeName) return typeName;
  const arn = params.get('Arn');
  const fromArn = arn ? /:type\/resource\/(.+)$/.exec(arn)?.[1] : undefined;
  if (fromArn) return fromArn.replaceAll('-', '::');
  throw new SandboxError('ValidationError', 'Specify either TypeName and Type, or Arn.', 400);
}

import {
  CreateRestApiCommand,
  DeleteRestApiCommand,
  GetRestApiCommand,
  paginateGetRestApis,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateRestApiCommand,
  type APIGatewayClient,
  type PatchOperation,
  type RestApi,
} from '@aws-sdk/client-api-gateway';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { TOKEN_TAG } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { tagDiff, tagMap } from '../tags.js';
import {
  apigw,
  bool,
  int,
  isNotFound,
  restApiArn,
  scalarPatch,
  setPatch,
  text,
  unlessNotFound,
} from './common.js';

export const REST_API_TYPE = 'AWS::ApiGateway::RestApi';

/**
 * What CDK's RestApi and LambdaRestApi emit. An OpenAPI body (SpecRestApi: Body,
 * BodyS3Location), cloning, and private endpoints' VPC endpoint ids are Cloud Control's.
 */
const COVERED = [
  'Name',
  'Description',
  'EndpointConfiguration',
  'Policy',
  'MinimumCompressionSize',
  'DisableExecuteApiEndpoint',
  'BinaryMediaTypes',
  'ApiKeySourceType',
  'Tags',
];

/**
 * AWS::ApiGateway::RestApi through CreateRestApi (tags, with the create's token tag, in the same
 * call), UpdateRestApi's patch operations and DeleteRestApi. Physical id and Ref: the API id,
 * also Cloud Control's identifier; RootResourceId is the root resource GetAtt reads.
 */
export class RestApiProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: REST_API_TYPE,
    covered: COVERED,
    alsoUncovered: (properties) => {
      const endpoint = properties.EndpointConfiguration as JsonObject | undefined;
      return endpoint?.VpcEndpointIds !== undefined || endpoint?.IpAddressType !== undefined
        ? ['EndpointConfiguration']
        : [];
    },
    replaces: [],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const token = request.idempotencyToken;
    const tags = { ...tagMap(properties.Tags), ...(token ? { [TOKEN_TAG]: token } : {}) };
    const api = await (
      await apigw(context, 'create')
    ).send(
      new CreateRestApiCommand({
        name: text(properties.Name),
        description: text(properties.Description),
        binaryMediaTypes: stringList(properties.BinaryMediaTypes),
        minimumCompressionSize: int(properties.MinimumCompressionSize),
        apiKeySource: text(properties.ApiKeySourceType) as RestApi['apiKeySource'],
        endpointConfiguration: endpointTypes(properties)
          ? { types: endpointTypes(properties) as NonNullable<RestApi['endpointConfiguration']>['types'] }
          : undefined,
        policy: policyText(properties.Policy),
        disableExecuteApiEndpoint: bool(properties.DisableExecuteApiEndpoint),
        ...(Object.keys(tags).length > 0 && { tags }),
      }),
      { abortSignal: context.signal },
    );
    return { physicalId: api.id!, attributes: attributesOf(api), observed: propertiesOf(api) };
  }

  /** The API a create with this token made: the token tag its CreateRestApi call wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const pages = paginateGetRestApis(
      { client: await apigw(context), pageSize: 500 },
      {},
      {
        abortSignal: context.signal,
      },
    );
    for await (const page of pages) {
      const made = page.items?.find((api) => api.tags?.[TOKEN_TAG] === token);
      if (made) return { physicalId: made.id! };
    }
    return 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await apigw(context);
    const restApiId = request.physicalId;
    const signal = { abortSignal: context.signal };
    const before = request.previousProperties;
    const after = request.properties;
    const patches = patchesFor(before, after);
    if (patches.length > 0) {
      await client.send(new UpdateRestApiCommand({ restApiId, patchOperations: patches }), signal);
    }
    // Only the template's own tags change; the token tag and tags added out of band stay.
    const { set, remove } = tagDiff(tagMap(before.Tags), tagMap(after.Tags));
    const resourceArn = restApiArn(context, restApiId);
    if (remove.length > 0)
      await client.send(new UntagResourceCommand({ resourceArn, tagKeys: remove }), signal);
    if (Object.keys(set).length > 0)
      await client.send(new TagResourceCommand({ resourceArn, tags: set }), signal);
    const api = await client.send(new GetRestApiCommand({ restApiId }), signal);
    return { physicalId: restApiId, attributes: attributesOf(api), observed: propertiesOf(api) };
  }

  /** An API already gone is deleted (its resources, methods, deployments and stages go with it). */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apigw(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteRestApiCommand({ restApiId: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client: APIGatewayClient = await apigw(context);
    const api = await unlessNotFound(() =>
      client.send(new GetRestApiCommand({ restApiId: request.physicalId }), { abortSignal: context.signal }),
    );
    return api ? { properties: propertiesOf(api), attributes: attributesOf(api) } : undefined;
  }
}

/** UpdateRestApi's operations from one template state to the next. */
function patchesFor(before: JsonObject, after: JsonObject): PatchOperation[] {
  const types = (properties: JsonObject) => endpointTypes(properties) ?? ['EDGE'];
  return [
    ...scalarPatch('/name', before.Name, after.Name),
    ...scalarPatch('/description', before.Description, after.Description),
    ...scalarPatch('/apiKeySource', before.ApiKeySourceType ?? 'HEADER', after.ApiKeySourceType ?? 'HEADER'),
    ...scalarPatch('/minimumCompressionSize', before.MinimumCompressionSize, after.MinimumCompressionSize),
    ...scalarPatch(
      '/disableExecuteApiEndpoint',
      bool(before.DisableExecuteApiEndpoint) ?? false,
      bool(after.DisableExecuteApiEndpoint) ?? false,
    ),
    ...scalarPatch('/policy', policyText(before.Policy), policyText(after.Policy)),
    ...scalarPatch('/endpointConfiguration/types/0', types(before)[0], types(after)[0]),
    ...setPatch('/binaryMediaTypes', before.BinaryMediaTypes, after.BinaryMediaTypes),
  ];
}

function endpointTypes(properties: JsonObject): string[] | undefined {
  const types = (properties.EndpointConfiguration as JsonObject | undefined)?.Types;
  return Array.isArray(types) && types.length > 0 ? types.map(String) : undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** A policy document as the API takes it: JSON text. */
function policyText(policy: unknown): string | undefined {
  if (policy === undefined || policy === null) return undefined;
  return typeof policy === 'string' ? policy : JSON.stringify(policy);
}

/** The template's properties as GetRestApi describes the API (the token tag left out). */
function propertiesOf(api: RestApi): JsonObject {
  const tags = Object.entries(api.tags ?? {})
    .filter(([key]) => key !== TOKEN_TAG && !key.startsWith('aws:'))
    .map(([Key, Value]) => ({ Key, Value }));
  return {
    Name: api.name,
    ...(api.description !== undefined && { Description: api.description }),
    ...(api.binaryMediaTypes?.length && {
      BinaryMediaTypes: api.binaryMediaTypes.map((t) => t.replace(/~1/g, '/')),
    }),
    ...(api.minimumCompressionSize !== undefined && { MinimumCompressionSize: api.minimumCompressionSize }),
    ...(api.apiKeySource !== undefined && { ApiKeySourceType: api.apiKeySource }),
    ...(api.endpointConfiguration?.types && {
      EndpointConfiguration: { Types: api.endpointConfiguration.types },
    }),
    ...(api.policy !== undefined && { Policy: parsedPolicy(api.policy) }),
    DisableExecuteApiEndpoint: api.disableExecuteApiEndpoint ?? false,
    ...(tags.length > 0 && { Tags: tags }),
  };
}

/** GetRestApi answers the policy as escaped JSON text. */
function parsedPolicy(policy: string): unknown {
  try {
    return JSON.parse(policy.replace(/\\"/g, '"')) as unknown;
  } catch {
    return policy;
  }
}

function attributesOf(api: RestApi): JsonObject {
  return { RestApiId: api.id, RootResourceId: api.rootResourceId };
}

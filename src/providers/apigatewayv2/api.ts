import {
  CreateApiCommand,
  DeleteApiCommand,
  DeleteCorsConfigurationCommand,
  GetApiCommand,
  GetApisCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateApiCommand,
  type GetApiCommandOutput,
  type ApiGatewayV2Client,
  type CreateApiCommandInput,
  type UpdateApiCommandInput,
} from '@aws-sdk/client-apigatewayv2';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
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
import { tagDiff } from '../tags.js';
import { allPages, apiGatewayV2, changed, NOT_FOUND, sent, typed } from './common.js';

export const API_TYPE = 'AWS::ApiGatewayV2::Api';

/** What CreateApi, UpdateApi and GetApi answer alike. */
type ApiView = Omit<GetApiCommandOutput, '$metadata'>;

/**
 * What the CDK's HttpApi and WebSocketApi emit. An OpenAPI body (Body, BodyS3Location,
 * BasePath, FailOnWarnings) and quick create (Target, RouteKey, CredentialsArn) go to Cloud Control.
 */
const COVERED = [
  'Name',
  'ProtocolType',
  'RouteSelectionExpression',
  'ApiKeySelectionExpression',
  'Description',
  'CorsConfiguration',
  'DisableExecuteApiEndpoint',
  'DisableSchemaValidation',
  'Version',
  'IpAddressType',
  'Tags',
];
const BOOLEANS = ['DisableExecuteApiEndpoint', 'DisableSchemaValidation'];

/**
 * AWS::ApiGatewayV2::Api through CreateApi, UpdateApi and DeleteApi. Physical id and Ref: the
 * API id. CreateApi takes no idempotency key: the create writes a token tag in the same call,
 * so `locate` finds what a create whose answer was lost made.
 */
export class HttpApiProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: API_TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await apiGatewayV2(context, SINGLE_ATTEMPT);
    const token = request.idempotencyToken;
    const input = typed(sent(request.properties, COVERED, ['Tags']), BOOLEANS);
    const tags = { ...tagsOf(request.properties), ...(token ? { [TOKEN_TAG]: token } : {}) };
    const made = await client.send(
      new CreateApiCommand({ ...(input as unknown as CreateApiCommandInput), Tags: tags }),
      { abortSignal: context.signal },
    );
    return {
      physicalId: made.ApiId!,
      attributes: attributesOf(made, context),
      creationIdentity: { ApiId: made.ApiId!, CreatedDate: made.CreatedDate!.toISOString() },
    };
  }

  /** The API a create with this token made: the token tag its CreateApi call wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const client = await apiGatewayV2(context);
    const apis = await allPages((NextToken) =>
      client.send(new GetApisCommand({ NextToken }), { abortSignal: context.signal }),
    );
    const found = apis.find((api) => api.Tags?.[TOKEN_TAG] === token);
    return found ? { physicalId: found.ApiId! } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await apiGatewayV2(context);
    const ApiId = request.physicalId;
    const signal = { abortSignal: context.signal };
    const before = request.previousProperties;
    const after = request.properties;
    const { CorsConfiguration, ...changes } = changed(
      before,
      after,
      COVERED.filter((name) => name !== 'Tags'),
    );
    if (CorsConfiguration !== undefined && after.CorsConfiguration === undefined) {
      await client.send(new DeleteCorsConfigurationCommand({ ApiId }), signal);
    } else if (CorsConfiguration !== undefined) {
      changes.CorsConfiguration = CorsConfiguration;
    }
    let live: ApiView | undefined;
    if (Object.keys(changes).length > 0) {
      live = await client.send(
        new UpdateApiCommand({
          ApiId,
          ...(typed(changes, BOOLEANS) as Omit<UpdateApiCommandInput, 'ApiId'>),
        }),
        signal,
      );
    }
    const resourceArn = apiArn(ApiId, context);
    const { set, remove } = tagDiff(tagsOf(before), tagsOf(after));
    if (remove.length > 0)
      await client.send(new UntagResourceCommand({ ResourceArn: resourceArn, TagKeys: remove }), signal);
    if (Object.keys(set).length > 0)
      await client.send(new TagResourceCommand({ ResourceArn: resourceArn, Tags: set }), signal);
    live ??= await client.send(new GetApiCommand({ ApiId }), signal);
    return { physicalId: ApiId, attributes: attributesOf(live, context) };
  }

  /** Deleting the API deletes its routes, integrations and stages with it; one already gone is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apiGatewayV2(context);
    await deleteTreatingNotFoundAsGone(
      () => client.send(new DeleteApiCommand({ ApiId: request.physicalId }), { abortSignal: context.signal }),
      errorCodeIn(NOT_FOUND),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const live = await getApi(await apiGatewayV2(context), request.physicalId, context);
    if (!live) return undefined;
    const tags = Object.entries(live.Tags ?? {}).filter(([key]) => key !== TOKEN_TAG);
    const properties: JsonObject = {
      Name: live.Name,
      ProtocolType: live.ProtocolType,
      ...(live.ProtocolType === 'WEBSOCKET' && { RouteSelectionExpression: live.RouteSelectionExpression }),
      ...(live.Description !== undefined && { Description: live.Description }),
      ...(live.CorsConfiguration !== undefined && { CorsConfiguration: live.CorsConfiguration }),
      ...(live.DisableExecuteApiEndpoint === true && { DisableExecuteApiEndpoint: true }),
      ...(live.Version !== undefined && { Version: live.Version }),
      ...(tags.length > 0 && { Tags: Object.fromEntries(tags) }),
    };
    return {
      properties,
      attributes: attributesOf(live, context),
      creationIdentity: { ApiId: live.ApiId!, CreatedDate: live.CreatedDate!.toISOString() },
    };
  }
}

async function getApi(
  client: ApiGatewayV2Client,
  ApiId: string,
  context: ProviderContext,
): Promise<ApiView | undefined> {
  try {
    return await client.send(new GetApiCommand({ ApiId }), { abortSignal: context.signal });
  } catch (error) {
    if (awsErrorCode(error) === NOT_FOUND) return undefined;
    throw error;
  }
}

/** An API's and a stage's Tags are a map in the template, as the API takes them. */
function tagsOf(properties: JsonObject): Record<string, string> {
  const tags = (properties.Tags ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key, String(value)]));
}

function apiArn(apiId: string, context: ProviderContext): string {
  return `arn:${partitionForRegion(context.region)}:apigateway:${context.region}::/apis/${apiId}`;
}

function attributesOf(api: ApiView, context: ProviderContext): JsonObject {
  return {
    ApiId: api.ApiId,
    ApiEndpoint: api.ApiEndpoint,
    ExecuteApiArn: `arn:${partitionForRegion(context.region)}:execute-api:${context.region}:${context.accountId}:${api.ApiId}`,
  };
}

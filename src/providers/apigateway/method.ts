import { DeleteMethodCommand, GetMethodCommand } from '@aws-sdk/client-api-gateway';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
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
import { resourceMade } from '../resource-made.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { apigw, isNotFound, text, unlessNotFound } from './common.js';
import {
  INTEGRATION_MEMBERS,
  methodProperties,
  putMethod,
  putMethodParts,
  type MethodKey,
} from './method-parts.js';

export const METHOD_TYPE = 'AWS::ApiGateway::Method';

const COVERED = [
  'RestApiId',
  'ResourceId',
  'HttpMethod',
  'AuthorizationType',
  'AuthorizerId',
  'ApiKeyRequired',
  'AuthorizationScopes',
  'OperationName',
  'RequestParameters',
  'RequestModels',
  'RequestValidatorId',
  'Integration',
  'MethodResponses',
];

/**
 * AWS::ApiGateway::Method through PutMethod, then PutIntegration, PutIntegrationResponse and
 * PutMethodResponse for what the template's Method carries. Physical id and Ref:
 * `{RestApiId}|{ResourceId}|{HttpMethod}`, Cloud Control's identifier.
 *
 * An update puts the method again (DeleteMethod, then the same calls as a create): a method's
 * changes reach callers only through a new deployment, which freezes the API as it then is,
 * so the moment between the two is never served.
 */
export class MethodProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: METHOD_TYPE,
    covered: COVERED,
    alsoUncovered: (properties) => {
      const integration = properties.Integration as JsonObject | undefined;
      return Object.keys(integration ?? {}).some((member) => !INTEGRATION_MEMBERS.includes(member))
        ? ['Integration']
        : [];
    },
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const key = keyOf(request.properties);
    const signal = { abortSignal: context.signal };
    await putMethod(await apigw(context, 'create'), key, request.properties, signal);
    const physicalId = idOf(key);
    try {
      await putMethodParts(await apigw(context), key, request.properties, signal);
    } catch (error) {
      throw resourceMade({ physicalId }, error);
    }
    return { physicalId, attributes: {} };
  }

  /** The method on this resource: one per HTTP method, in an API this stack made, so a method there is this create's. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const key = keyOf(request.properties);
    const client = await apigw(context);
    const method = await unlessNotFound(() =>
      client.send(new GetMethodCommand(key), { abortSignal: context.signal }),
    );
    return method ? { physicalId: idOf(key) } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const key = keyOf(request.properties);
    const client = await apigw(context);
    const signal = { abortSignal: context.signal };
    await deleteTreatingNotFoundAsGone(() => client.send(new DeleteMethodCommand(key), signal), isNotFound);
    await putMethod(client, key, request.properties, signal);
    await putMethodParts(client, key, request.properties, signal);
    return { physicalId: idOf(key), attributes: {} };
  }

  /** A method already gone (or its resource or API) is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apigw(context);
    await deleteTreatingNotFoundAsGone(
      () => client.send(new DeleteMethodCommand(keyOf(request.properties)), { abortSignal: context.signal }),
      isNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const key = keyOf(request.properties);
    const client = await apigw(context);
    const method = await unlessNotFound(() =>
      client.send(new GetMethodCommand(key), { abortSignal: context.signal }),
    );
    return method
      ? { properties: methodProperties(key, method, request.properties), attributes: {} }
      : undefined;
  }
}

function keyOf(properties: JsonObject): MethodKey {
  return {
    restApiId: text(properties.RestApiId) ?? '',
    resourceId: text(properties.ResourceId) ?? '',
    httpMethod: text(properties.HttpMethod) ?? '',
  };
}

const idOf = (key: MethodKey): string => `${key.restApiId}|${key.resourceId}|${key.httpMethod}`;

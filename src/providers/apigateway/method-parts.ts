import {
  PutIntegrationCommand,
  PutIntegrationResponseCommand,
  PutMethodCommand,
  PutMethodResponseCommand,
  type APIGatewayClient,
  type GetMethodCommandOutput,
  type Integration,
  type PutIntegrationCommandInput,
  type PutMethodCommandInput,
} from '@aws-sdk/client-api-gateway';
import type { JsonObject } from '../provider.js';
import { bool, int, stringMap, text } from './common.js';

/** The Integration members the provider sends; any other routes the method through Cloud Control. */
export const INTEGRATION_MEMBERS = [
  'Type',
  'IntegrationHttpMethod',
  'Uri',
  'ConnectionType',
  'ConnectionId',
  'Credentials',
  'RequestParameters',
  'RequestTemplates',
  'PassthroughBehavior',
  'ContentHandling',
  'TimeoutInMillis',
  'CacheNamespace',
  'CacheKeyParameters',
  'IntegrationResponses',
];

export interface MethodKey {
  restApiId: string;
  resourceId: string;
  httpMethod: string;
}

type Signal = { abortSignal?: AbortSignal };

/** PutMethod for the template's method-level properties. */
export async function putMethod(client: APIGatewayClient, key: MethodKey, p: JsonObject, signal: Signal) {
  const input: PutMethodCommandInput = {
    ...key,
    authorizationType: text(p.AuthorizationType) ?? 'NONE',
    authorizerId: text(p.AuthorizerId),
    apiKeyRequired: bool(p.ApiKeyRequired),
    operationName: text(p.OperationName),
    requestParameters: booleanMap(p.RequestParameters),
    requestModels: stringMap(p.RequestModels),
    requestValidatorId: text(p.RequestValidatorId),
    authorizationScopes: Array.isArray(p.AuthorizationScopes) ? p.AuthorizationScopes.map(String) : undefined,
  };
  await client.send(new PutMethodCommand(input), signal);
}

/** The method's integration, its integration responses and its method responses, one call each, as the API takes them. */
export async function putMethodParts(
  client: APIGatewayClient,
  key: MethodKey,
  p: JsonObject,
  signal: Signal,
) {
  const integration = p.Integration as JsonObject | undefined;
  if (integration) {
    const input: PutIntegrationCommandInput = {
      ...key,
      type: text(integration.Type) as PutIntegrationCommandInput['type'],
      integrationHttpMethod: text(integration.IntegrationHttpMethod),
      uri: text(integration.Uri),
      connectionType: text(integration.ConnectionType) as PutIntegrationCommandInput['connectionType'],
      connectionId: text(integration.ConnectionId),
      credentials: text(integration.Credentials),
      requestParameters: stringMap(integration.RequestParameters),
      requestTemplates: stringMap(integration.RequestTemplates),
      passthroughBehavior: text(integration.PassthroughBehavior),
      contentHandling: text(integration.ContentHandling) as PutIntegrationCommandInput['contentHandling'],
      timeoutInMillis: int(integration.TimeoutInMillis),
      cacheNamespace: text(integration.CacheNamespace),
      cacheKeyParameters: Array.isArray(integration.CacheKeyParameters)
        ? integration.CacheKeyParameters.map(String)
        : undefined,
    };
    await client.send(new PutIntegrationCommand(input), signal);
    for (const response of list(integration.IntegrationResponses)) {
      await client.send(
        new PutIntegrationResponseCommand({
          ...key,
          statusCode: String(response.StatusCode),
          selectionPattern: text(response.SelectionPattern),
          responseParameters: stringMap(response.ResponseParameters),
          responseTemplates: stringMap(response.ResponseTemplates),
          contentHandling: text(response.ContentHandling) as PutIntegrationCommandInput['contentHandling'],
        }),
        signal,
      );
    }
  }
  for (const response of mergedByStatus(list(p.MethodResponses))) {
    await client.send(
      new PutMethodResponseCommand({
        ...key,
        statusCode: String(response.StatusCode),
        responseParameters: booleanMap(response.ResponseParameters),
        responseModels: stringMap(response.ResponseModels),
      }),
      signal,
    );
  }
}

/**
 * The template's properties as GetMethod describes the method. An integration member API
 * Gateway fills with its default is left out where the template (`applied`) leaves it out.
 */
export function methodProperties(
  key: MethodKey,
  method: GetMethodCommandOutput,
  applied: JsonObject,
): JsonObject {
  const responses = Object.values(method.methodResponses ?? {});
  return {
    RestApiId: key.restApiId,
    ResourceId: key.resourceId,
    HttpMethod: method.httpMethod,
    AuthorizationType: method.authorizationType,
    ...(method.authorizerId !== undefined && { AuthorizerId: method.authorizerId }),
    ...(method.apiKeyRequired && { ApiKeyRequired: true }),
    ...(method.operationName !== undefined && { OperationName: method.operationName }),
    ...(nonEmpty(method.requestParameters) && { RequestParameters: method.requestParameters }),
    ...(nonEmpty(method.requestModels) && { RequestModels: method.requestModels }),
    ...(method.requestValidatorId !== undefined && { RequestValidatorId: method.requestValidatorId }),
    ...(method.authorizationScopes?.length && { AuthorizationScopes: method.authorizationScopes }),
    ...(method.methodIntegration && {
      Integration: withoutDefaults(
        integrationProperties(method.methodIntegration),
        {
          PassthroughBehavior: 'WHEN_NO_MATCH',
          TimeoutInMillis: 29000,
          ConnectionType: 'INTERNET',
          CacheNamespace: key.resourceId,
        },
        (applied.Integration as JsonObject | undefined) ?? {},
      ),
    }),
    ...(responses.length > 0 && {
      MethodResponses: responses.map((response) => ({
        StatusCode: response.statusCode,
        ...(nonEmpty(response.responseParameters) && { ResponseParameters: response.responseParameters }),
        ...(nonEmpty(response.responseModels) && { ResponseModels: response.responseModels }),
      })),
    }),
  };
}

function withoutDefaults(live: JsonObject, defaults: JsonObject, applied: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(live).filter(([name, value]) => name in applied || value !== defaults[name]),
  );
}

function integrationProperties(integration: Integration): JsonObject {
  const responses = Object.values(integration.integrationResponses ?? {});
  return {
    Type: integration.type,
    ...(integration.httpMethod !== undefined && { IntegrationHttpMethod: integration.httpMethod }),
    ...(integration.uri !== undefined && { Uri: integration.uri }),
    ...(integration.connectionType !== undefined && { ConnectionType: integration.connectionType }),
    ...(integration.connectionId !== undefined && { ConnectionId: integration.connectionId }),
    ...(integration.credentials !== undefined && { Credentials: integration.credentials }),
    ...(nonEmpty(integration.requestParameters) && { RequestParameters: integration.requestParameters }),
    ...(nonEmpty(integration.requestTemplates) && { RequestTemplates: integration.requestTemplates }),
    ...(integration.passthroughBehavior !== undefined && {
      PassthroughBehavior: integration.passthroughBehavior,
    }),
    ...(integration.contentHandling !== undefined && { ContentHandling: integration.contentHandling }),
    ...(integration.timeoutInMillis !== undefined && { TimeoutInMillis: integration.timeoutInMillis }),
    ...(integration.cacheNamespace !== undefined && { CacheNamespace: integration.cacheNamespace }),
    ...(integration.cacheKeyParameters?.length && { CacheKeyParameters: integration.cacheKeyParameters }),
    ...(responses.length > 0 && {
      IntegrationResponses: responses.map((response) => ({
        StatusCode: response.statusCode,
        ...(response.selectionPattern !== undefined && { SelectionPattern: response.selectionPattern }),
        ...(nonEmpty(response.responseParameters) && { ResponseParameters: response.responseParameters }),
        ...(nonEmpty(response.responseTemplates) && { ResponseTemplates: response.responseTemplates }),
        ...(response.contentHandling !== undefined && { ContentHandling: response.contentHandling }),
      })),
    }),
  };
}

/** Method request and response parameters: `{name: required}`. */
function booleanMap(value: unknown): Record<string, boolean> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.fromEntries(
    Object.entries(value as JsonObject).map(([k, v]) => [k, v === true || v === 'true']),
  );
}

/**
 * Method responses with one entry per status code: CDK can list a code twice (its
 * Step Functions integration adds models beside the CORS header), which CloudFormation
 * takes as one response holding both, and PutMethodResponse refuses a second put.
 */
function mergedByStatus(responses: JsonObject[]): JsonObject[] {
  const byStatus = new Map<string, JsonObject>();
  for (const response of responses) {
    const status = String(response.StatusCode);
    const earlier = byStatus.get(status) ?? {};
    byStatus.set(status, {
      ...earlier,
      ...response,
      ResponseParameters: {
        ...(earlier.ResponseParameters as object),
        ...(response.ResponseParameters as object),
      },
      ResponseModels: { ...(earlier.ResponseModels as object), ...(response.ResponseModels as object) },
    });
  }
  return [...byStatus.values()];
}

function list(value: unknown): JsonObject[] {
  return Array.isArray(value) ? (value as JsonObject[]) : [];
}

function nonEmpty(value: object | undefined): boolean {
  return value !== undefined && Object.keys(value).length > 0;
}

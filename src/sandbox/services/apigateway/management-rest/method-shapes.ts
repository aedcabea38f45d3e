import type { ResourceModel } from '../../../resources.js';
import { defined, stringMap, text } from './shapes.js';

/** A method as GetMethod answers it: its integration and responses keyed by status code. */
export function methodOutput(model: ResourceModel): Record<string, unknown> {
  const responses = Array.isArray(model.MethodResponses) ? (model.MethodResponses as ResourceModel[]) : [];
  const integration = model.Integration as ResourceModel | undefined;
  return defined({
    httpMethod: model.HttpMethod,
    authorizationType: model.AuthorizationType ?? 'NONE',
    authorizerId: model.AuthorizerId,
    apiKeyRequired: model.ApiKeyRequired ?? false,
    requestValidatorId: model.RequestValidatorId,
    operationName: model.OperationName,
    requestParameters: model.RequestParameters,
    requestModels: model.RequestModels,
    authorizationScopes: model.AuthorizationScopes,
    methodResponses:
      responses.length > 0
        ? Object.fromEntries(
            responses.map((response) => [String(response.StatusCode), methodResponseOutput(response)]),
          )
        : undefined,
    methodIntegration: integration ? integrationOutput(integration, String(model.ResourceId)) : undefined,
  });
}

export function methodResponseOutput(response: ResourceModel): Record<string, unknown> {
  return defined({
    statusCode: response.StatusCode,
    responseParameters: response.ResponseParameters,
    responseModels: response.ResponseModels,
  });
}

/** The integration as GetIntegration answers it, with API Gateway's defaults filled in. */
export function integrationOutput(integration: ResourceModel, resourceId: string): Record<string, unknown> {
  const responses = Array.isArray(integration.IntegrationResponses)
    ? (integration.IntegrationResponses as ResourceModel[])
    : [];
  return defined({
    type: integration.Type,
    httpMethod: integration.IntegrationHttpMethod,
    uri: integration.Uri,
    connectionType: integration.ConnectionType ?? 'INTERNET',
    connectionId: integration.ConnectionId,
    credentials: integration.Credentials,
    requestParameters: integration.RequestParameters,
    requestTemplates: integration.RequestTemplates,
    passthroughBehavior: integration.PassthroughBehavior ?? 'WHEN_NO_MATCH',
    contentHandling: integration.ContentHandling,
    timeoutInMillis: integration.TimeoutInMillis ?? 29000,
    cacheNamespace: integration.CacheNamespace ?? resourceId,
    cacheKeyParameters: integration.CacheKeyParameters ?? [],
    integrationResponses:
      responses.length > 0
        ? Object.fromEntries(
            responses.map((response) => [String(response.StatusCode), integrationResponseOutput(response)]),
          )
        : undefined,
  });
}

export function integrationResponseOutput(response: ResourceModel): Record<string, unknown> {
  return defined({
    statusCode: response.StatusCode,
    selectionPattern: response.SelectionPattern,
    responseParameters: response.ResponseParameters,
    responseTemplates: response.ResponseTemplates,
    contentHandling: response.ContentHandling,
  });
}

/** PutIntegration's input as the model's Integration (CloudFormation's shape). */
export function integrationModelOf(input: Record<string, unknown>): ResourceModel {
  return defined({
    Type: text(input.type),
    IntegrationHttpMethod: text(input.httpMethod),
    Uri: text(input.uri),
    ConnectionType: text(input.connectionType),
    ConnectionId: text(input.connectionId),
    Credentials: text(input.credentials),
    RequestParameters: stringMap(input.requestParameters),
    RequestTemplates: stringMap(input.requestTemplates),
    PassthroughBehavior: text(input.passthroughBehavior),
    ContentHandling: text(input.contentHandling),
    TimeoutInMillis: typeof input.timeoutInMillis === 'number' ? input.timeoutInMillis : undefined,
    CacheNamespace: text(input.cacheNamespace),
    CacheKeyParameters:
      Array.isArray(input.cacheKeyParameters) && input.cacheKeyParameters.length > 0
        ? input.cacheKeyParameters.map(String)
        : undefined,
  });
}

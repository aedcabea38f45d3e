import type { ResourceEntry, ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import {
  integrationModelOf,
  integrationOutput,
  integrationResponseOutput,
  methodOutput,
  methodResponseOutput,
} from './method-shapes.js';
import { applyPatch, type PatchRule } from './patch.js';
import { defined, stringMap, text } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

const HTTP_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'ANY'];
const AUTHORIZATION_TYPES = ['NONE', 'AWS_IAM', 'CUSTOM', 'COGNITO_USER_POOLS'];
const INTEGRATION_TYPES = ['HTTP', 'AWS', 'MOCK', 'HTTP_PROXY', 'AWS_PROXY'];

/**
 * A method, its integration and both kinds of response, kept in one Method model as
 * CloudFormation's shape has them (Integration.IntegrationResponses, MethodResponses).
 */
export function methodHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  const target = (call: ApiCall) => {
    const store = storeOf(call);
    const { restapi_id: api, resource_id: resource, http_method: method } = call.labels;
    return { store, entry: store.method(api!, resource!, method!) };
  };
  const save = async (store: RestApiStore, entry: ResourceEntry, model: ResourceModel) =>
    store.update(TYPES.method, entry, model);
  return {
    PutMethod: async (call) => {
      const store = storeOf(call);
      const { restapi_id: restApiId, resource_id: resourceId, http_method: httpMethod } = call.labels;
      store.resource(restApiId!, resourceId!);
      if (!HTTP_METHODS.includes(httpMethod!)) {
        throw apigwErrors.badRequest(
          `Invalid HttpMethod specified. Valid options are ${HTTP_METHODS.join(',')}`,
        );
      }
      if (store.methodEntry(restApiId!, resourceId!, httpMethod!)) {
        throw apigwErrors.conflict('Method already exists for this resource');
      }
      const input = call.input;
      const authorizationType = text(input.authorizationType);
      if (!authorizationType || !AUTHORIZATION_TYPES.includes(authorizationType)) {
        throw apigwErrors.badRequest(
          `Invalid authorization type specified. Valid options are ${AUTHORIZATION_TYPES.join(',')}`,
        );
      }
      if (
        (authorizationType === 'CUSTOM' || authorizationType === 'COGNITO_USER_POOLS') &&
        !text(input.authorizerId)
      ) {
        throw apigwErrors.badRequest(
          'Invalid authorizer ID specified. Setting the authorization type to CUSTOM or COGNITO_USER_POOLS requires a valid authorizer.',
        );
      }
      const made = await store.create(
        TYPES.method,
        defined({
          RestApiId: restApiId,
          ResourceId: resourceId,
          HttpMethod: httpMethod,
          AuthorizationType: authorizationType,
          AuthorizerId: text(input.authorizerId),
          ApiKeyRequired: input.apiKeyRequired === true ? true : undefined,
          OperationName: text(input.operationName),
          RequestParameters: input.requestParameters ?? undefined,
          RequestModels: stringMap(input.requestModels),
          RequestValidatorId: text(input.requestValidatorId),
          AuthorizationScopes:
            Array.isArray(input.authorizationScopes) && input.authorizationScopes.length > 0
              ? input.authorizationScopes.map(String)
              : undefined,
        }),
      );
      return methodOutput(made.model);
    },
    GetMethod: (call) => methodOutput(target(call).entry.model),
    UpdateMethod: async (call) => {
      const { store, entry } = target(call);
      const model = applyPatch(entry.model, call.input.patchOperations, METHOD_PATCH_RULES);
      if (!AUTHORIZATION_TYPES.includes(String(model.AuthorizationType ?? 'NONE'))) {
        throw apigwErrors.badRequest('Invalid authorization type specified.');
      }
      return methodOutput(await save(store, entry, model));
    },
    DeleteMethod: async (call) => {
      const { store, entry } = target(call);
      await store.delete(TYPES.method, entry);
      return undefined;
    },
    PutIntegration: async (call) => {
      const { store, entry } = target(call);
      const integration = integrationModelOf(call.input);
      const type = String(integration.Type ?? '');
      if (!INTEGRATION_TYPES.includes(type)) {
        throw apigwErrors.badRequest(
          `Invalid integration type specified. Valid options are ${INTEGRATION_TYPES.join(',')}`,
        );
      }
      if (type !== 'MOCK' && !integration.IntegrationHttpMethod) {
        throw apigwErrors.badRequest('Enumeration value for HttpMethod must be non-empty');
      }
      if (type !== 'MOCK' && !integration.Uri) {
        throw apigwErrors.badRequest('Invalid integration URI specified');
      }
      if (
        type === 'AWS_PROXY' &&
        !/^arn:aws[a-z-]*:apigateway:[^:]+:lambda:path\/.+\/functions\/.+\/invocations$/.test(
          String(integration.Uri),
        )
      ) {
        throw apigwErrors.badRequest(
          "Integrations of type 'AWS_PROXY' currently only supports Lambda function and Firehose stream invocations.",
        );
      }
      const updated = await save(store, entry, { ...entry.model, Integration: integration });
      return integrationOutput(updated.Integration as ResourceModel, String(entry.model.ResourceId));
    },
    GetIntegration: (call) => {
      const { entry } = target(call);
      const integration = entry.model.Integration as ResourceModel | undefined;
      if (!integration) throw apigwErrors.notFound('No integration defined for method');
      return integrationOutput(integration, String(entry.model.ResourceId));
    },
    DeleteIntegration: async (call) => {
      const { store, entry } = target(call);
      if (!entry.model.Integration) throw apigwErrors.notFound('No integration defined for method');
      await save(store, entry, { ...entry.model, Integration: undefined });
      return undefined;
    },
    PutIntegrationResponse: async (call) => {
      const { store, entry } = target(call);
      const integration = entry.model.Integration as ResourceModel | undefined;
      if (!integration) throw apigwErrors.notFound('Invalid Integration identifier specified');
      const statusCode = statusOf(call);
      const response = defined({
        StatusCode: statusCode,
        SelectionPattern: text(call.input.selectionPattern),
        ResponseParameters: stringMap(call.input.responseParameters),
        ResponseTemplates: stringMap(call.input.responseTemplates),
        ContentHandling: text(call.input.contentHandling),
      });
      const others = listOf(integration.IntegrationResponses).filter((r) => r.StatusCode !== statusCode);
      await save(store, entry, {
        ...entry.model,
        Integration: { ...integration, IntegrationResponses: [...others, response] },
      });
      return integrationResponseOutput(response);
    },
    DeleteIntegrationResponse: async (call) => {
      const { store, entry } = target(call);
      const integration = (entry.model.Integration as ResourceModel | undefined) ?? {};
      const statusCode = statusOf(call);
      const responses = listOf(integration.IntegrationResponses);
      if (!responses.some((r) => r.StatusCode === statusCode)) {
        throw apigwErrors.notFound('Invalid Response status code specified');
      }
      const rest = responses.filter((r) => r.StatusCode !== statusCode);
      await save(store, entry, {
        ...entry.model,
        Integration: defined({ ...integration, IntegrationResponses: rest.length > 0 ? rest : undefined }),
      });
      return undefined;
    },
    PutMethodResponse: async (call) => {
      const { store, entry } = target(call);
      const statusCode = statusOf(call);
      const responses = listOf(entry.model.MethodResponses);
      if (responses.some((r) => r.StatusCode === statusCode)) {
        throw apigwErrors.conflict('Response already exists for this resource');
      }
      const response = defined({
        StatusCode: statusCode,
        ResponseParameters: call.input.responseParameters ?? undefined,
        ResponseModels: stringMap(call.input.responseModels),
      });
      await save(store, entry, { ...entry.model, MethodResponses: [...responses, response] });
      return methodResponseOutput(response);
    },
    GetMethodResponse: (call) => {
      const statusCode = statusOf(call);
      const response = listOf(target(call).entry.model.MethodResponses).find(
        (r) => r.StatusCode === statusCode,
      );
      if (!response) throw apigwErrors.notFound('Invalid Response status code specified');
      return methodResponseOutput(response);
    },
    DeleteMethodResponse: async (call) => {
      const { store, entry } = target(call);
      const statusCode = statusOf(call);
      const responses = listOf(entry.model.MethodResponses);
      if (!responses.some((r) => r.StatusCode === statusCode)) {
        throw apigwErrors.notFound('Invalid Response status code specified');
      }
      const rest = responses.filter((r) => r.StatusCode !== statusCode);
      await save(
        store,
        entry,
        defined({ ...entry.model, MethodResponses: rest.length > 0 ? rest : undefined }),
      );
      return undefined;
    },
  };
}

const METHOD_PATCH_RULES: Readonly<Record<string, PatchRule>> = {
  '/authorizationType': { kind: 'string', prop: 'AuthorizationType' },
  '/authorizerId': { kind: 'string', prop: 'AuthorizerId' },
  '/apiKeyRequired': { kind: 'bool', prop: 'ApiKeyRequired' },
  '/operationName': { kind: 'string', prop: 'OperationName' },
  '/requestValidatorId': { kind: 'string', prop: 'RequestValidatorId' },
  '/authorizationScopes/*': { kind: 'set', prop: 'AuthorizationScopes' },
  '/requestModels/*': { kind: 'map', prop: 'RequestModels' },
};

function statusOf(call: ApiCall): string {
  const statusCode = call.labels.status_code ?? '';
  if (!/^[1-5]\d\d$/.test(statusCode))
    throw apigwErrors.badRequest(`Invalid status code specified: ${statusCode}`);
  return statusCode;
}

function listOf(value: unknown): ResourceModel[] {
  return Array.isArray(value) ? (value as ResourceModel[]) : [];
}

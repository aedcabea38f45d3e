import { page } from '../../../protocols/pagination.js';
import { sandboxSchemaFor } from '../../../resource-index.js';
import type { ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { HTTP_TYPES } from '../config/reader.js';
import type { ManagementRoutes } from '../management/routes.js';
import { httpApiErrors, modelOf, viewOf } from './shapes.js';
import type { HttpApiStore, Where } from './store.js';

const PROTOCOLS = ['HTTP', 'WEBSOCKET'];
/** An API's parts, deleted with it (routes before the integrations they target). */
const PARTS = [
  HTTP_TYPES.route,
  HTTP_TYPES.integration,
  HTTP_TYPES.authorizer,
  HTTP_TYPES.stage,
  HTTP_TYPES.deployment,
];

/** What GetApi answers for members an API was made without. */
const API_DEFAULTS: ResourceModel = {
  ApiKeySelectionExpression: '$request.header.x-api-key',
  DisableExecuteApiEndpoint: false,
  Tags: {},
};

export const APIS_ROUTES: ManagementRoutes['routes'] = [
  { method: 'POST', path: '/v2/apis', operation: 'CreateApi', status: 201 },
  { method: 'GET', path: '/v2/apis', operation: 'GetApis' },
  { method: 'GET', path: '/v2/apis/{apiId}', operation: 'GetApi' },
  { method: 'PATCH', path: '/v2/apis/{apiId}', operation: 'UpdateApi' },
  { method: 'DELETE', path: '/v2/apis/{apiId}', operation: 'DeleteApi', status: 204 },
  { method: 'DELETE', path: '/v2/apis/{apiId}/cors', operation: 'DeleteCorsConfiguration', status: 204 },
];

/** CreateApi, GetApi(s), UpdateApi and DeleteApi for HTTP and WebSocket APIs. */
export function apiHandlers(store: HttpApiStore): Record<string, ApiHandler> {
  const members = (sandboxSchemaFor(HTTP_TYPES.api)?.props ?? []).filter(
    (name) => !['Body', 'BodyS3Location', 'BasePath', 'FailOnWarnings'].includes(name),
  );
  const where = (call: ApiCall): Where => ({ region: call.region, accountId: call.accountId });
  const view = (model: ResourceModel, call: ApiCall) =>
    viewOf({
      ...API_DEFAULTS,
      ...(model.ProtocolType === 'HTTP' && { RouteSelectionExpression: '$request.method $request.path' }),
      ...model,
      CreatedDate: store.createdAt(HTTP_TYPES.api, model, where(call)),
    });
  const check = (model: ResourceModel) => {
    if (typeof model.Name !== 'string' || model.Name === '') {
      throw httpApiErrors.badRequest('Invalid API name specified: a name is required.');
    }
    if (!PROTOCOLS.includes(String(model.ProtocolType))) {
      throw httpApiErrors.badRequest(
        `Invalid protocol type ${String(model.ProtocolType)}: HTTP or WEBSOCKET.`,
      );
    }
    if (model.ProtocolType === 'WEBSOCKET' && model.RouteSelectionExpression === undefined) {
      throw httpApiErrors.badRequest('A WEBSOCKET API needs a route selection expression.');
    }
  };
  return {
    async CreateApi(call) {
      const desired = modelOf(call.input, members);
      check(desired);
      const made = await store.create(HTTP_TYPES.api, desired, where(call));
      return view(made.model, call);
    },
    GetApi: (call) => view(store.api(call.labels.apiId!, where(call)), call),
    GetApis(call) {
      const apis = store
        .handler(HTTP_TYPES.api)
        .list(call.region, call.accountId)
        .map((entry) => view(entry.model, call));
      const { items, nextToken } = page(
        apis,
        Number(call.request.query.get('maxResults') ?? 0),
        call.request.query.get('nextToken') ?? undefined,
        () => httpApiErrors.badRequest('Invalid pagination token.'),
      );
      return { items, ...(nextToken !== undefined && { nextToken }) };
    },
    async UpdateApi(call) {
      const current = store.api(call.labels.apiId!, where(call));
      const changes = modelOf(call.input, members);
      if (changes.ProtocolType !== undefined && changes.ProtocolType !== current.ProtocolType) {
        throw httpApiErrors.badRequest('The protocol type of an API cannot be changed.');
      }
      const next = { ...current, ...changes };
      check(next);
      return view(await store.update(HTTP_TYPES.api, next, where(call)), call);
    },
    async DeleteCorsConfiguration(call) {
      const api = store.api(call.labels.apiId!, where(call));
      delete api.CorsConfiguration;
      await store.update(HTTP_TYPES.api, api, where(call));
      return undefined;
    },
    async DeleteApi(call) {
      const apiId = call.labels.apiId!;
      const api = store.api(apiId, where(call));
      for (const type of PARTS) {
        for (const part of store.parts(type, apiId, where(call))) await store.delete(type, part, where(call));
      }
      await store.delete(HTTP_TYPES.api, api, where(call));
      return undefined;
    },
  };
}

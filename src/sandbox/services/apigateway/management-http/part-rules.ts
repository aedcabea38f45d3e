import type { ResourceModel } from '../../../resources.js';
import { HTTP_TYPES } from '../config/reader.js';
import { httpApiErrors } from './shapes.js';
import type { HttpApiStore, Where } from './store.js';

const METHODS = 'ANY|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS';
const HTTP_ROUTE_KEY = new RegExp(`^(\\$default|(${METHODS}) /\\S*)$`);
const AUTHORIZATION_TYPES = ['NONE', 'AWS_IAM', 'CUSTOM', 'JWT'];
const HTTP_INTEGRATION_TYPES = ['AWS_PROXY', 'HTTP_PROXY'];
const INTEGRATION_TYPES = ['AWS', 'AWS_PROXY', 'HTTP', 'HTTP_PROXY', 'MOCK'];
const STAGE_NAME = /^(\$default|[\w-]{1,128})$/;

/** Every route target in the API (`integrations/<id>`). */
export function routeTargets(store: HttpApiStore, apiId: string, where: Where): string[] {
  return store
    .parts(HTTP_TYPES.route, apiId, where)
    .flatMap((route) => (typeof route.Target === 'string' ? [route.Target] : []));
}

/** A route: a key HTTP APIs take, unique in the API, its target and authorizer in the API. */
export function checkRoute(
  route: ResourceModel,
  api: ResourceModel,
  others: ResourceModel[],
  store: HttpApiStore,
  where: Where,
): void {
  const key = String(route.RouteKey ?? '');
  if (api.ProtocolType === 'HTTP' && !HTTP_ROUTE_KEY.test(key)) {
    throw httpApiErrors.badRequest(
      `Unable to create route ${key}. Route key must be $default, or an HTTP method (or ANY) followed by a space and a path starting with /.`,
    );
  }
  if (others.some((other) => other.RouteKey === key)) {
    throw httpApiErrors.conflict(`Unable to create Route, a Route with key ${key} already exists.`);
  }
  if (typeof route.Target === 'string') {
    const match = /^integrations\/(\w+)$/.exec(route.Target);
    const known = store.parts(HTTP_TYPES.integration, String(api.ApiId), where);
    if (!match || !known.some((integration) => integration.IntegrationId === match[1])) {
      throw httpApiErrors.badRequest(
        `Invalid target ${route.Target}: it must be integrations/ and an integration of the API.`,
      );
    }
  }
  const authorization = String(route.AuthorizationType ?? 'NONE');
  if (!AUTHORIZATION_TYPES.includes(authorization)) {
    throw httpApiErrors.badRequest(`Invalid authorization type ${authorization}.`);
  }
  if (authorization === 'CUSTOM' || authorization === 'JWT') {
    const authorizers = store.parts(HTTP_TYPES.authorizer, String(api.ApiId), where);
    if (!authorizers.some((authorizer) => authorizer.AuthorizerId === route.AuthorizerId)) {
      throw httpApiErrors.badRequest(
        `Invalid authorizer identifier ${String(route.AuthorizerId)} for a ${authorization} route.`,
      );
    }
  }
}

/** An integration of a type the API's protocol takes, with what its type needs. */
export function checkIntegration(integration: ResourceModel, api: ResourceModel): void {
  const type = String(integration.IntegrationType ?? '');
  const allowed = api.ProtocolType === 'HTTP' ? HTTP_INTEGRATION_TYPES : INTEGRATION_TYPES;
  if (!allowed.includes(type)) {
    throw httpApiErrors.badRequest(
      `Unsupported integration type ${type} for a ${String(api.ProtocolType)} API.`,
    );
  }
  if (
    type !== 'MOCK' &&
    integration.IntegrationUri === undefined &&
    integration.IntegrationSubtype === undefined
  ) {
    throw httpApiErrors.badRequest(`An integration of type ${type} needs an integration URI.`);
  }
  const format = integration.PayloadFormatVersion;
  if (format !== undefined && format !== '1.0' && format !== '2.0') {
    throw httpApiErrors.badRequest(
      `Invalid payload format version ${String(format)}: it must be 1.0 or 2.0.`,
    );
  }
}

/** A stage name API Gateway takes, unique in the API. */
export function checkStage(stage: ResourceModel, api: ResourceModel, others: ResourceModel[]): void {
  const name = String(stage.StageName ?? '');
  if (!STAGE_NAME.test(name)) {
    throw httpApiErrors.badRequest(`Invalid stage name ${name}: letters, digits, - and _ only, or $default.`);
  }
  if (others.some((other) => other.StageName === name)) {
    throw httpApiErrors.conflict(`Stage already exists: ${name} in API ${String(api.ApiId)}.`);
  }
}

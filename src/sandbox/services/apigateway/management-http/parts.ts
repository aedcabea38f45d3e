import { sandboxSchemaFor } from '../../../resource-index.js';
import type { ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { HTTP_TYPES } from '../config/reader.js';
import type { ManagementRoutes } from '../management/routes.js';
import { checkIntegration, checkRoute, checkStage, routeTargets } from './part-rules.js';
import { httpApiErrors, modelOf, viewOf } from './shapes.js';
import type { HttpApiStore, Where } from './store.js';

/** One kind of an HTTP API's parts: its type, path segment, names and rules. */
export interface PartKind {
  type: string;
  segment: string;
  noun: string;
  plural: string;
  /** The model property that names a part within its API (the path's last label). */
  idProperty: string;
  /** What GetX answers for members a part was made without. */
  defaults: ResourceModel;
  /** Refuses a part as API Gateway would, given the API's other parts of the kind. */
  check(
    part: ResourceModel,
    api: ResourceModel,
    others: ResourceModel[],
    store: HttpApiStore,
    where: Where,
  ): void;
  /** Refuses a delete of a part others still use. */
  inUse?(part: ResourceModel, store: HttpApiStore, where: Where): void;
  /** Stages report when they were made and last changed. */
  dated?: boolean;
}

export const PART_KINDS: readonly PartKind[] = [
  {
    type: HTTP_TYPES.route,
    segment: 'routes',
    noun: 'Route',
    plural: 'Routes',
    idProperty: 'RouteId',
    defaults: { ApiKeyRequired: false, AuthorizationType: 'NONE' },
    check: checkRoute,
  },
  {
    type: HTTP_TYPES.integration,
    segment: 'integrations',
    noun: 'Integration',
    plural: 'Integrations',
    idProperty: 'IntegrationId',
    defaults: { ConnectionType: 'INTERNET', TimeoutInMillis: 30000 },
    check: checkIntegration,
    inUse(part, store, where) {
      const target = `integrations/${String(part.IntegrationId)}`;
      if (routeTargets(store, String(part.ApiId), where).includes(target)) {
        throw httpApiErrors.conflict(
          `Unable to delete integration ${String(part.IntegrationId)}: it is the target of a route.`,
        );
      }
    },
  },
  {
    type: HTTP_TYPES.stage,
    segment: 'stages',
    noun: 'Stage',
    plural: 'Stages',
    idProperty: 'StageName',
    defaults: {
      AutoDeploy: false,
      DefaultRouteSettings: { DetailedMetricsEnabled: false },
      RouteSettings: {},
      StageVariables: {},
      Tags: {},
    },
    check: checkStage,
    dated: true,
  },
  {
    type: HTTP_TYPES.authorizer,
    segment: 'authorizers',
    noun: 'Authorizer',
    plural: 'Authorizers',
    idProperty: 'AuthorizerId',
    defaults: {},
    check(part, _api, others) {
      if (others.some((other) => other.Name === part.Name)) {
        throw httpApiErrors.conflict(
          `Unable to create Authorizer, an Authorizer named ${String(part.Name)} already exists.`,
        );
      }
    },
  },
];

/**
 * Create, Get, Update (PATCH), Delete and list for each kind of an HTTP API's parts, under
 * `/v2/apis/{apiId}/<segment>`.
 */
export function partRoutes(store: HttpApiStore): ManagementRoutes {
  const routes: ManagementRoutes['routes'][number][] = [];
  const handlers: Record<string, ApiHandler> = {};
  for (const kind of PART_KINDS) {
    const base = `/v2/apis/{apiId}/${kind.segment}`;
    const item = `${base}/{partId}`;
    routes.push(
      { method: 'POST', path: base, operation: `Create${kind.noun}`, status: 201 },
      { method: 'GET', path: base, operation: `Get${kind.plural}` },
      { method: 'GET', path: item, operation: `Get${kind.noun}` },
      { method: 'PATCH', path: item, operation: `Update${kind.noun}` },
      { method: 'DELETE', path: item, operation: `Delete${kind.noun}`, status: 204 },
    );
    Object.assign(handlers, partHandlers(kind, store));
  }
  return { routes, handlers };
}

function partHandlers(kind: PartKind, store: HttpApiStore): Record<string, ApiHandler> {
  const members = (sandboxSchemaFor(kind.type)?.props ?? []).filter((name) => name !== 'ApiId');
  // A part's name within its API (a stage's) is fixed once made.
  const settable = members.filter((name) => name !== kind.idProperty);
  const where = (call: ApiCall): Where => ({ region: call.region, accountId: call.accountId });
  const find = (call: ApiCall) => {
    const apiId = call.labels.apiId!;
    store.api(apiId, where(call));
    const id = call.labels.partId!;
    const part = store.parts(kind.type, apiId, where(call)).find((model) => model[kind.idProperty] === id);
    if (!part) throw httpApiErrors.notFound(kind.noun, id);
    return part;
  };
  const view = (part: ResourceModel, call: ApiCall) => {
    // The API id is the path's, not a member of the part's answer.
    const own = { ...part };
    delete own.ApiId;
    const dates = kind.dated
      ? {
          CreatedDate: store.createdAt(kind.type, part, where(call)),
          LastUpdatedDate: new Date().toISOString(),
        }
      : {};
    return viewOf({ ...kind.defaults, ...own, ...dates });
  };
  return {
    async [`Create${kind.noun}`](call) {
      const apiId = call.labels.apiId!;
      const api = store.api(apiId, where(call));
      const desired: ResourceModel = { ...modelOf(call.input, members), ApiId: apiId };
      kind.check(desired, api, store.parts(kind.type, apiId, where(call)), store, where(call));
      const made = await store.create(kind.type, desired, where(call));
      return view(made.model, call);
    },
    [`Get${kind.noun}`]: (call) => view(find(call), call),
    [`Get${kind.plural}`](call) {
      const apiId = call.labels.apiId!;
      store.api(apiId, where(call));
      return { items: store.parts(kind.type, apiId, where(call)).map((part) => view(part, call)) };
    },
    async [`Update${kind.noun}`](call) {
      const part = find(call);
      const api = store.api(call.labels.apiId!, where(call));
      const next: ResourceModel = { ...part, ...modelOf(call.input, settable) };
      const others = store
        .parts(kind.type, call.labels.apiId!, where(call))
        .filter((other) => other[kind.idProperty] !== part[kind.idProperty]);
      kind.check(next, api, others, store, where(call));
      return view(await store.update(kind.type, next, where(call)), call);
    },
    async [`Delete${kind.noun}`](call) {
      const part = find(call);
      kind.inUse?.(part, store, where(call));
      await store.delete(kind.type, part, where(call));
      return undefined;
    },
  };
}

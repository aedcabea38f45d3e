import type { ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import { methodOutput } from './method-shapes.js';
import { defined } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

/**
 * A path part: one segment, or one `{name}` / `{name+}` variable. AWS takes more than its
 * message names (CDK's own integration tests deploy `$appliances:all`), so only what
 * cannot be one segment is refused.
 */
const PATH_PART = /^(?:[^/{}\s]+|\{[^/{}\s+]+\+?\})$/;

/**
 * CreateResource, GetResource(s) and DeleteResource over Resource models. A resource's parent
 * and path part are create-only in CloudFormation's model, so UpdateResource is not served.
 */
export function resourceHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  return {
    CreateResource: async (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      const parentId = call.labels.parent_id!;
      store.resource(restApiId, parentId);
      const pathPart = String(call.input.pathPart ?? '');
      checkSibling(store, restApiId, parentId, pathPart);
      const made = await store.create(TYPES.resource, {
        RestApiId: restApiId,
        ParentId: parentId,
        PathPart: pathPart,
      });
      return resourceOutput(store, restApiId, made.model, false);
    },
    GetResources: (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      const api = store.api(restApiId);
      const embed = call.request.query.getAll('embed').includes('methods');
      const all = [
        { ResourceId: api.model.RootResourceId, RestApiId: restApiId },
        ...store.parts(TYPES.resource, restApiId).map((entry) => entry.model),
      ];
      return { item: all.map((model) => resourceOutput(store, restApiId, model, embed)) };
    },
    GetResource: (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      const embed = call.request.query.getAll('embed').includes('methods');
      return resourceOutput(store, restApiId, store.resource(restApiId, call.labels.resource_id!), embed);
    },
    DeleteResource: async (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      const entry = resourceEntry(store, restApiId, call.labels.resource_id!);
      for (const id of [...descendants(store, restApiId, String(entry.model.ResourceId))].reverse()) {
        for (const method of store.parts(TYPES.method, restApiId).filter((m) => m.model.ResourceId === id)) {
          await store.delete(TYPES.method, method);
        }
        const resource = store.resourceEntry(restApiId, id);
        if (resource) await store.delete(TYPES.resource, resource);
      }
      return undefined;
    },
  };
}

function resourceEntry(store: RestApiStore, restApiId: string, resourceId: string) {
  store.resource(restApiId, resourceId);
  const entry = store.resourceEntry(restApiId, resourceId);
  if (!entry) throw apigwErrors.badRequest('Cannot delete the root resource.');
  return entry;
}

/** The resource and everything below it, parents first. */
function descendants(store: RestApiStore, restApiId: string, resourceId: string): string[] {
  const all = store.parts(TYPES.resource, restApiId).map((entry) => entry.model);
  const found = [resourceId];
  for (let index = 0; index < found.length; index += 1) {
    for (const child of all.filter((model) => model.ParentId === found[index]))
      found.push(String(child.ResourceId));
  }
  return found;
}

/** API Gateway's checks on a new path part under a parent: its shape, a taken name, a second variable. */
function checkSibling(store: RestApiStore, restApiId: string, parentId: string, pathPart: string): void {
  if (!PATH_PART.test(pathPart)) {
    throw apigwErrors.badRequest(
      "Resource's path part only allow a-zA-Z0-9._- and curly braces at the beginning and the end and an optional plus sign before the closing brace.",
    );
  }
  const siblings = store
    .parts(TYPES.resource, restApiId)
    .filter((entry) => entry.model.ParentId === parentId);
  if (siblings.some((entry) => entry.model.PathPart === pathPart)) {
    throw apigwErrors.conflict(`Another resource with the same parent already has this name: ${pathPart}`);
  }
  const variable = siblings.find((entry) => String(entry.model.PathPart).startsWith('{'));
  if (pathPart.startsWith('{') && variable) {
    throw apigwErrors.badRequest(
      `A sibling (${String(variable.model.ResourceId)}) of this resource already has a variable path part -- only one is allowed`,
    );
  }
}

/** The resource as GetResource answers it: its full path, and its methods (in full with `embed=methods`). */
function resourceOutput(
  store: RestApiStore,
  restApiId: string,
  model: ResourceModel,
  embed: boolean,
): Record<string, unknown> {
  const methods = store
    .parts(TYPES.method, restApiId)
    .filter((entry) => entry.model.ResourceId === model.ResourceId);
  return defined({
    id: model.ResourceId,
    parentId: model.ParentId,
    pathPart: model.PathPart,
    path: pathOf(store, restApiId, model),
    resourceMethods:
      methods.length > 0
        ? Object.fromEntries(
            methods.map((entry) => [String(entry.model.HttpMethod), embed ? methodOutput(entry.model) : {}]),
          )
        : undefined,
  });
}

function pathOf(store: RestApiStore, restApiId: string, model: ResourceModel): string {
  const parts: string[] = [];
  let current: ResourceModel | undefined = model;
  for (let depth = 0; current?.PathPart !== undefined && depth < 100; depth += 1) {
    parts.unshift(String(current.PathPart));
    current = store.resourceEntry(restApiId, String(current.ParentId))?.model;
  }
  return `/${parts.join('/')}`;
}

import type { ResourceModel } from '../types.js';
import { mostSpecific, type PathParameters } from '../routing.js';

export interface MatchedMethod {
  method: ResourceModel;
  resourceId: string;
  /** The resource's path template (`/items/{proxy+}`). */
  resourcePath: string;
  pathParameters: PathParameters;
}

/**
 * The method a REST API request reaches: the most specific resource whose path matches, then
 * its method for the request's verb, else its ANY method.
 */
export function matchMethod(
  rootResourceId: string,
  resources: readonly ResourceModel[],
  methods: readonly ResourceModel[],
  httpMethod: string,
  rawPath: string,
): MatchedMethod | undefined {
  const paths = resourcePaths(rootResourceId, resources);
  const resource = mostSpecific([...paths.entries()], ([, path]) => path, rawPath);
  if (!resource) return undefined;
  const [resourceId, resourcePath] = resource.item;
  const onResource = methods.filter((method) => method.ResourceId === resourceId);
  const method =
    onResource.find((candidate) => candidate.HttpMethod === httpMethod) ??
    onResource.find((candidate) => candidate.HttpMethod === 'ANY');
  return method ? { method, resourceId, resourcePath, pathParameters: resource.pathParameters } : undefined;
}

/** Each resource's full path, built from its parents' path parts up to the API's root (`/`). */
export function resourcePaths(
  rootResourceId: string,
  resources: readonly ResourceModel[],
): Map<string, string> {
  const byId = new Map(resources.map((resource) => [String(resource.ResourceId), resource]));
  const paths = new Map<string, string>([[rootResourceId, '/']]);
  const pathOf = (id: string, seen: Set<string>): string | undefined => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = byId.get(id);
    if (!resource || seen.has(id)) return undefined;
    seen.add(id);
    const parent = pathOf(String(resource.ParentId), seen);
    if (parent === undefined) return undefined;
    const path = `${parent === '/' ? '' : parent}/${String(resource.PathPart)}`;
    paths.set(id, path);
    return path;
  };
  for (const id of byId.keys()) pathOf(id, new Set());
  return paths;
}

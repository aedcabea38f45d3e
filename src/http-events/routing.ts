import { decodeSegment } from './request-parts.js';

/**
 * Which resource (REST API) or route (HTTP API) a request path reaches. A path template's
 * segments are literals, `{name}` (one segment) or a last `{name+}` (one or more segments).
 * The most specific template wins: one without a greedy variable over one with, then,
 * segment by segment from the left, a literal over a variable; for routes, a method over ANY.
 */

export type PathParameters = Record<string, string>;

/** The request path's segments (still percent-encoded), without empty ones. */
export function pathSegments(rawPath: string): string[] {
  return rawPath.split('/').filter((segment) => segment !== '');
}

/** The template's variables bound to the path (decoded), or undefined when it does not match. */
export function matchTemplate(template: string, segments: readonly string[]): PathParameters | undefined {
  const parts = pathSegments(template);
  const parameters: PathParameters = {};
  for (const [index, part] of parts.entries()) {
    const greedy = /^\{(.+)\+\}$/.exec(part);
    if (greedy) {
      if (index !== parts.length - 1 || segments.length <= index) return undefined;
      parameters[greedy[1]!] = segments.slice(index).map(decodeSegment).join('/');
      return parameters;
    }
    const segment = segments[index];
    if (segment === undefined) return undefined;
    const variable = /^\{(.+)\}$/.exec(part);
    if (variable) parameters[variable[1]!] = decodeSegment(segment);
    else if (part !== decodeSegment(segment)) return undefined;
  }
  return parts.length === segments.length ? parameters : undefined;
}

/** Negative when template `a` is more specific than `b`. */
export function compareSpecificity(a: string, b: string): number {
  const greedy = (template: string): boolean => /\+\}$/.test(template);
  if (greedy(a) !== greedy(b)) return greedy(a) ? 1 : -1;
  const rank = (part: string | undefined): number =>
    part === undefined ? 3 : /\+\}$/.test(part) ? 2 : /^\{.+\}$/.test(part) ? 1 : 0;
  const aParts = pathSegments(a);
  const bParts = pathSegments(b);
  for (let index = 0; index < Math.max(aParts.length, bParts.length); index += 1) {
    const difference = rank(aParts[index]) - rank(bParts[index]);
    if (difference !== 0) return difference;
  }
  return 0;
}

export interface PathMatch<T> {
  item: T;
  pathParameters: PathParameters;
}

/** The item whose template matches most specifically, or undefined. */
export function mostSpecific<T>(
  items: readonly T[],
  templateOf: (item: T) => string,
  rawPath: string,
): PathMatch<T> | undefined {
  const segments = pathSegments(rawPath);
  let best: PathMatch<T> | undefined;
  for (const item of items) {
    const pathParameters = matchTemplate(templateOf(item), segments);
    if (!pathParameters) continue;
    if (!best || compareSpecificity(templateOf(item), templateOf(best.item)) < 0)
      best = { item, pathParameters };
  }
  return best;
}

/** An HTTP API route key: `$default`, or `METHOD /path` (METHOD may be ANY). */
export interface RouteKey {
  key: string;
  method: string;
  path: string;
}

export function parseRouteKey(key: string): RouteKey {
  const space = key.indexOf(' ');
  return space < 0
    ? { key, method: '', path: '' }
    : { key, method: key.slice(0, space).toUpperCase(), path: key.slice(space + 1) };
}

/**
 * The route an HTTP API request takes: the most specific path among routes for its method
 * or ANY (a method beating ANY on the same path), else `$default`.
 */
export function selectRoute<T extends { routeKey: RouteKey }>(
  routes: readonly T[],
  method: string,
  rawPath: string,
): PathMatch<T> | undefined {
  const candidates = routes.filter(
    (route) => route.routeKey.key !== '$default' && [method, 'ANY'].includes(route.routeKey.method),
  );
  const byPath = mostSpecific(candidates, (route) => route.routeKey.path, rawPath);
  if (byPath) {
    const samePath = candidates.filter((route) => route.routeKey.path === byPath.item.routeKey.path);
    const exact = samePath.find((route) => route.routeKey.method === method);
    return { item: exact ?? byPath.item, pathParameters: byPath.pathParameters };
  }
  const fallback = routes.find((route) => route.routeKey.key === '$default');
  return fallback ? { item: fallback, pathParameters: {} } : undefined;
}

import type { HttpRequest } from './types.js';
import type { HttpAnswer } from './types.js';

/**
 * CORS as an HTTP API's `CorsConfiguration` and a function URL's `Cors` configure it (the
 * same members): the front door answers preflight requests itself and puts its own CORS
 * headers on every answer to an allowed origin, in place of the backend's.
 */
export interface CorsConfig {
  AllowOrigins?: string[];
  AllowMethods?: string[];
  AllowHeaders?: string[];
  ExposeHeaders?: string[];
  MaxAge?: number;
  AllowCredentials?: boolean;
}

export function isPreflight(request: HttpRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
  );
}

/** The value of Access-Control-Allow-Origin for this origin, or undefined when it is not allowed. */
export function allowedOrigin(config: CorsConfig, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  const origins = config.AllowOrigins ?? [];
  if (origins.includes('*')) return config.AllowCredentials ? origin : '*';
  const lower = origin.toLowerCase();
  return origins.some((allowed) => matchesOrigin(allowed.toLowerCase(), lower)) ? origin : undefined;
}

/** `https://*.example.com` matches any subdomain; anything else must match exactly. */
function matchesOrigin(allowed: string, origin: string): boolean {
  if (!allowed.includes('*')) return allowed === origin;
  const pattern = allowed.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('[^/]*')}$`).test(origin);
}

/**
 * The answer to a preflight: 204, with the configured CORS headers when the origin, the
 * requested method and headers are allowed, without them otherwise (the browser then
 * refuses the request, as it would on AWS).
 */
export function preflightResponse(config: CorsConfig, request: HttpRequest): HttpAnswer {
  const origin = allowedOrigin(config, request.headers.origin);
  const method = (request.headers['access-control-request-method'] ?? '').toUpperCase();
  const methods = (config.AllowMethods ?? []).map((allowed) => allowed.toUpperCase());
  const requested = (request.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const allowedHeaders = (config.AllowHeaders ?? []).map((name) => name.toLowerCase());
  const headersAllowed =
    allowedHeaders.includes('*') || requested.every((name) => allowedHeaders.includes(name));
  if (!origin || !(methods.includes('*') || methods.includes(method)) || !headersAllowed) {
    return { status: 204, headers: {} };
  }
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': methods.includes('*') ? method : methods.join(','),
      ...(requested.length > 0
        ? {
            'access-control-allow-headers': allowedHeaders.includes('*')
              ? requested.join(',')
              : (config.AllowHeaders ?? []).join(','),
          }
        : {}),
      ...(config.MaxAge !== undefined ? { 'access-control-max-age': String(config.MaxAge) } : {}),
      ...(config.AllowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
      ...(origin !== '*' ? { vary: 'Origin' } : {}),
    },
  };
}

/** The backend's answer with the configured CORS headers in place of its own. */
export function withCorsHeaders(config: CorsConfig, request: HttpRequest, response: HttpAnswer): HttpAnswer {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).filter(([name]) => !name.startsWith('access-control-')),
  );
  const origin = allowedOrigin(config, request.headers.origin);
  if (origin) {
    headers['access-control-allow-origin'] = origin;
    if (config.ExposeHeaders?.length)
      headers['access-control-expose-headers'] = config.ExposeHeaders.join(',');
    if (config.AllowCredentials) headers['access-control-allow-credentials'] = 'true';
    if (origin !== '*') headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
  }
  return { ...response, headers };
}

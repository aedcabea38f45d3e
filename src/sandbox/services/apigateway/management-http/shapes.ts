import { SandboxError } from '../../../errors.js';
import type { ResourceModel } from '../../../resources.js';

/** API Gateway v2's error answers (REST-JSON, `x-amzn-errortype`, `{"message"}`). */
export const httpApiErrors = {
  notFound: (what: string, id: string, accountId?: string) =>
    new SandboxError(
      'NotFoundException',
      `Invalid ${what} identifier specified ${accountId ? `${accountId}:` : ''}${id}`,
      404,
    ),
  conflict: (message: string) => new SandboxError('ConflictException', message, 409),
  badRequest: (message: string) => new SandboxError('BadRequestException', message, 400),
};

/**
 * Members whose value is a structure: its keys change case too (`allowOrigins` ↔ `AllowOrigins`).
 * Any other object member is a map (tags, stage variables, request parameters) whose keys are data.
 */
const STRUCTURES = new Set([
  'CorsConfiguration',
  'TlsConfig',
  'JwtConfiguration',
  'AccessLogSettings',
  'DefaultRouteSettings',
]);
/** Maps whose values are structures (route settings by route key, route parameter constraints). */
const MAPS_OF_STRUCTURES = new Set(['RouteSettings']);

const upper = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);
const lower = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

function recase(value: unknown, first: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => recase(item, first));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [first(key), recase(inner, first)]));
}

function convert(body: Record<string, unknown>, first: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      const name = first(key);
      const model = upper(key);
      if (STRUCTURES.has(model)) return [name, recase(value, first)];
      if (MAPS_OF_STRUCTURES.has(model) && value !== null && typeof value === 'object') {
        return [
          name,
          Object.fromEntries(Object.entries(value).map(([inner, item]) => [inner, recase(item, first)])),
        ];
      }
      return [name, value];
    }),
  );
}

/** A request body (camelCase members) as Cloud Control's model names them, `undefined`s left out. */
export function modelOf(input: Record<string, unknown>, members: readonly string[]): ResourceModel {
  const picked = Object.fromEntries(
    Object.entries(input).filter(([key, value]) => value !== undefined && members.includes(upper(key))),
  );
  return convert(picked, upper);
}

/** A model as the API answers it (camelCase members). */
export function viewOf(model: ResourceModel): Record<string, unknown> {
  return convert(model, lower);
}

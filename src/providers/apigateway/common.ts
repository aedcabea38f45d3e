import { APIGatewayClient, type PatchOperation } from '@aws-sdk/client-api-gateway';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { errorCodeIn } from '../delete-gone.js';
import type { ProviderContext } from '../provider.js';

/**
 * API Gateway's control plane throttles hard (a few calls a second per account, DeleteRestApi
 * once in 30 s) and its TooManyRequestsException carries Retry-After, which the SDK's standard
 * retry waits out: more attempts than the default 3 let it, before the engine's own schedule.
 */
const THROTTLED_CONTROL_PLANE = { maxAttempts: 6 };

/** The client for calls safe to repeat; `create` for a create call, which carries no idempotency token. */
export function apigw(
  context: ProviderContext,
  kind: 'repeatable' | 'create' = 'repeatable',
): Promise<APIGatewayClient> {
  return context.clients.client(
    APIGatewayClient,
    context.region,
    kind === 'create' ? SINGLE_ATTEMPT : THROTTLED_CONTROL_PLANE,
  );
}

export const isNotFound = errorCodeIn('NotFoundException');

/** The resource AWS says is not there reads as undefined. */
export async function unlessNotFound<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (awsErrorCode(error) === 'NotFoundException') return undefined;
    throw error;
  }
}

export function text(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

export function bool(value: unknown): boolean | undefined {
  return value === undefined || value === null ? undefined : value === true || value === 'true';
}

export function int(value: unknown): number | undefined {
  return value === undefined || value === null || value === '' ? undefined : Number(value);
}

/** A string map (CloudFormation's values may be numbers or booleans); empty as absent. */
export function stringMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length > 0 ? Object.fromEntries(entries.map(([k, v]) => [k, String(v)])) : undefined;
}

/** A path segment in a patch path: JSON Pointer's escapes. */
export const escapePath = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** `replace` for a scalar whose value changed (an emptied one is replaced by `''`, as the API clears it). */
export function scalarPatch(path: string, before: unknown, after: unknown): PatchOperation[] {
  if (text(before) === text(after)) return [];
  return [{ op: 'replace', path, value: text(after) ?? '' }];
}

/** `add`/`remove` per entry of a string map (`/variables/{name}`). */
export function mapPatch(prefix: string, before: unknown, after: unknown): PatchOperation[] {
  const old = stringMap(before) ?? {};
  const next = stringMap(after) ?? {};
  return [
    ...Object.keys(old)
      .filter((key) => !(key in next))
      .map((key) => ({ op: 'remove' as const, path: `${prefix}/${escapePath(key)}` })),
    ...Object.entries(next)
      .filter(([key, value]) => old[key] !== value)
      .map(([key, value]) => ({
        op: old[key] === undefined ? ('add' as const) : ('replace' as const),
        path: `${prefix}/${escapePath(key)}`,
        value,
      })),
  ];
}

/** `add`/`remove` per member of a list of strings (`/binaryMediaTypes/{type}`). */
export function setPatch(prefix: string, before: unknown, after: unknown): PatchOperation[] {
  const old = Array.isArray(before) ? before.map(String) : [];
  const next = Array.isArray(after) ? after.map(String) : [];
  return [
    ...old
      .filter((item) => !next.includes(item))
      .map((item) => ({ op: 'remove' as const, path: `${prefix}/${escapePath(item)}` })),
    ...next
      .filter((item) => !old.includes(item))
      .map((item) => ({ op: 'add' as const, path: `${prefix}/${escapePath(item)}` })),
  ];
}

/** A REST API's ARN (and a stage's), as the tagging calls take them. */
export function restApiArn(context: ProviderContext, restApiId: string, stageName?: string): string {
  return `arn:${partitionForRegion(context.region)}:apigateway:${context.region}::/restapis/${restApiId}${stageName ? `/stages/${stageName}` : ''}`;
}

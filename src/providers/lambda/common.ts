import { LambdaClient } from '@aws-sdk/client-lambda';
import { awsErrorCode } from '../../aws/error-class.js';

import type { JsonObject, ProviderContext } from '../provider.js';
import type { ClientTuning } from '../../aws/index.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function lambdaClient(context: ProviderContext, tuning: ClientTuning = {}): Promise<LambdaClient> {
  return context.clients.client(LambdaClient, context.region, tuning);
}

export function isNotFound(error: unknown): boolean {
  return awsErrorCode(error) === 'ResourceNotFoundException';
}

/** Sends a delete call; a resource already gone is what a delete wants. */
export async function sendDelete(
  context: ProviderContext,
  call: (client: LambdaClient, options: { abortSignal?: AbortSignal }) => Promise<unknown>,
): Promise<void> {
  const client = await lambdaClient(context);
  await deleteTreatingNotFoundAsGone(() => call(client, { abortSignal: context.signal }), isNotFound);
}

/** CloudFormation passes numbers as strings at times (`"30"`); it coerces them, so do we. */
export function integer(value: unknown, property: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(number)) {
    throw new TypeError(
      `${property} must be an integer, got ${JSON.stringify(value)}; fix the template value.`,
    );
  }
  return number;
}

/** CloudFormation booleans may arrive as "true" / "false". */
export function boolean(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  return value === true || value === 'true';
}

export function string(value: unknown): string | undefined {
  return typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? undefined
      : String(value);
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** CloudFormation's `[{Key, Value}]` tags as Lambda's map. */
export function tagMap(value: unknown): Record<string, string> {
  if (!Array.isArray(value)) return {};
  return Object.fromEntries(
    value.map((tag: { Key?: unknown; Value?: unknown }) => [String(tag.Key), String(tag.Value ?? '')]),
  );
}

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

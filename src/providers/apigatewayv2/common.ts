import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import type { ClientTuning } from '../../aws/index.js';
import type { JsonObject, ProviderContext } from '../provider.js';

/** `SINGLE_ATTEMPT` for a create call, which carries no idempotency key (spec 003, "Ambiguous creates"). */
export function apiGatewayV2(
  context: ProviderContext,
  tuning: ClientTuning = {},
): Promise<ApiGatewayV2Client> {
  return context.clients.client(ApiGatewayV2Client, context.region, tuning);
}

/** Every item of a Get<Things> call, page after page (API Gateway v2's client has no paginators for them). */
export async function allPages<T>(
  send: (NextToken: string | undefined) => Promise<{ Items?: T[]; NextToken?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let NextToken: string | undefined;
  do {
    const page = await send(NextToken);
    items.push(...(page.Items ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return items;
}

/** The API Gateway v2 not-found answer: the API or the part is gone. */
export const NOT_FOUND = 'NotFoundException';

/** The covered properties the template gives, as the API takes them (its members share CloudFormation's names). */
export function sent(
  properties: JsonObject,
  covered: readonly string[],
  skip: readonly string[] = [],
): JsonObject {
  return Object.fromEntries(
    covered
      .filter((name) => properties[name] !== undefined && !skip.includes(name))
      .map((name) => [name, properties[name]]),
  );
}

/**
 * What an update sends: each covered property whose value changed, and each one the template
 * dropped as its empty value (the PATCH calls keep a member that is left out), or the
 * service's default where `defaults` names one.
 */
export function changed(
  before: JsonObject,
  after: JsonObject,
  covered: readonly string[],
  defaults: JsonObject = {},
): JsonObject {
  const changes: JsonObject = {};
  for (const name of covered) {
    if (JSON.stringify(before[name]) === JSON.stringify(after[name])) continue;
    changes[name] = after[name] !== undefined ? after[name] : (defaults[name] ?? emptyLike(before[name]));
  }
  return changes;
}

function emptyLike(value: unknown): unknown {
  if (Array.isArray(value)) return [];
  if (typeof value === 'object' && value !== null) return {};
  if (typeof value === 'boolean') return false;
  return '';
}

/** Booleans and numbers the template may give as text, as the API takes them. */
export function typed(
  input: JsonObject,
  booleans: readonly string[],
  numbers: readonly string[] = [],
): JsonObject {
  const out = { ...input };
  for (const name of booleans)
    if (out[name] !== undefined) out[name] = out[name] === true || out[name] === 'true';
  for (const name of numbers) if (out[name] !== undefined) out[name] = Number(out[name]);
  return out;
}

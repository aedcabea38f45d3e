import { isRecord } from '../payload-v2.js';

/** What a Lambda authorizer's IAM policy says about one method ARN. */
export type PolicyDecision = 'allow' | 'deny' | 'implicit-deny';

/**
 * Evaluates the policy document a Lambda authorizer returned against the invoked method's
 * ARN (`arn:aws:execute-api:region:account:api/stage/METHOD/path`): an explicit Deny wins,
 * else an Allow is needed. Actions and resources match with `*` and `?` wildcards.
 */
export function evaluatePolicy(document: unknown, methodArn: string): PolicyDecision {
  let allowed = false;
  for (const statement of statements(document)) {
    const actions = list(statement.Action);
    const resources = list(statement.Resource);
    const applies =
      actions.some((action) => wildcard(action.toLowerCase(), 'execute-api:invoke')) &&
      resources.some((resource) => wildcard(resource, methodArn));
    if (!applies) continue;
    if (statement.Effect === 'Deny') return 'deny';
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed ? 'allow' : 'implicit-deny';
}

/** Whether the output carries a policy document shaped as API Gateway requires. */
export function isPolicyDocument(document: unknown): boolean {
  return isRecord(document) && (Array.isArray(document.Statement) || isRecord(document.Statement));
}

function statements(document: unknown): Array<Record<string, unknown>> {
  if (!isRecord(document)) return [];
  const raw = document.Statement;
  return (Array.isArray(raw) ? raw : [raw]).filter(isRecord);
}

function list(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function wildcard(pattern: string, value: string): boolean {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`).test(value);
}

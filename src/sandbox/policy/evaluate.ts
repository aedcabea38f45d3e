import { conditionHolds } from './conditions.js';
import { wildcardMatch } from './wildcard.js';

/** Who is asking: an AWS service delivering on a resource's behalf, or an IAM principal (a role). */
export type PolicyPrincipal = { service: string } | { arn: string; account: string };

export interface PolicyRequest {
  principal: PolicyPrincipal;
  /** As policies name it, `service:Action` (matched ignoring case). */
  action: string;
  /**
   * The resource's ARN; undefined when the sandbox cannot derive it from the request: then
   * only statements whose Resource includes `*` apply, and no NotResource statement does.
   */
  resource: string | undefined;
  /** Condition keys of the request (`aws:SourceArn`, `aws:SourceAccount` ...), matched ignoring case. */
  context: Record<string, string>;
}

/** An explicit Deny wins; an Allow allows; otherwise nothing allowed it. */
export type Decision = 'allow' | 'deny' | 'implicit-deny';

type Statement = Record<string, unknown>;

/**
 * The decision one policy document (a JSON string or the parsed document) gives a request.
 * A statement with no Principal is an identity policy's, which applies to whoever holds it.
 * A document that is not JSON allows nothing.
 */
export function evaluatePolicy(policy: unknown, request: PolicyRequest): Decision {
  let allowed = false;
  for (const statement of statements(policy)) {
    if (!statementMatches(statement, request)) continue;
    if (statement.Effect === 'Deny') return 'deny';
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed ? 'allow' : 'implicit-deny';
}

/**
 * A request under both kinds of policy, as IAM decides it: an explicit Deny in any denies;
 * within one account an Allow in either allows; across accounts both must allow. A service
 * principal has no identity policies (`identity` undefined): the resource policy alone decides.
 */
export function evaluateAccess(
  request: PolicyRequest,
  policies: { identity?: readonly unknown[]; resource?: unknown; sameAccount: boolean },
): Decision {
  const resource =
    policies.resource === undefined ? 'implicit-deny' : evaluatePolicy(policies.resource, request);
  if (policies.identity === undefined) return resource;
  const identity = policies.identity.map((policy) => evaluatePolicy(policy, request));
  if (identity.includes('deny') || resource === 'deny') return 'deny';
  const byIdentity = identity.includes('allow');
  const byResource = resource === 'allow';
  const allowed = policies.sameAccount ? byIdentity || byResource : byIdentity && byResource;
  return allowed ? 'allow' : 'implicit-deny';
}

function statements(policy: unknown): Statement[] {
  let document = policy;
  if (typeof document === 'string') {
    try {
      document = JSON.parse(document);
    } catch {
      return [];
    }
  }
  if (typeof document !== 'object' || document === null) return [];
  const list = (document as { Statement?: unknown }).Statement;
  const all = Array.isArray(list) ? list : [list];
  return all.filter((s): s is Statement => typeof s === 'object' && s !== null);
}

function statementMatches(statement: Statement, request: PolicyRequest): boolean {
  if (statement.Principal !== undefined && !principalMatches(statement.Principal, request.principal))
    return false;
  if (statement.NotPrincipal !== undefined && principalMatches(statement.NotPrincipal, request.principal))
    return false;
  if (statement.Action !== undefined && !anyMatches(statement.Action, request.action, true)) return false;
  if (statement.NotAction !== undefined && anyMatches(statement.NotAction, request.action, true))
    return false;
  if (statement.Resource !== undefined && !resourceMatches(statement.Resource, request.resource))
    return false;
  if (
    statement.NotResource !== undefined &&
    (request.resource === undefined || resourceMatches(statement.NotResource, request.resource))
  )
    return false;
  return conditionHolds(statement.Condition, request.context);
}

function anyMatches(patterns: unknown, value: string, ignoreCase: boolean): boolean {
  return list(patterns).some((pattern) => wildcardMatch(pattern, value, ignoreCase));
}

function resourceMatches(patterns: unknown, resource: string | undefined): boolean {
  return resource === undefined ? list(patterns).includes('*') : anyMatches(patterns, resource, false);
}

/** `*` and `{"AWS": "*"}` name everyone; an account id or its root ARN names the account's principals. */
function principalMatches(principal: unknown, who: PolicyPrincipal): boolean {
  if (principal === '*') return true;
  if (typeof principal !== 'object' || principal === null) return false;
  const named = principal as Record<string, unknown>;
  if (list(named.AWS).includes('*')) return true;
  if ('service' in who) return list(named.Service).some((service) => service === who.service);
  return list(named.AWS).some(
    (aws) => aws === who.arn || aws === who.account || aws === `arn:aws:iam::${who.account}:root`,
  );
}

function list(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

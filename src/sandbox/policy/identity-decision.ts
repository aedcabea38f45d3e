import { evaluatePolicy, type PolicyRequest } from './evaluate.js';

/** Why a principal's own policies refuse a request, as IAM's access denied messages name it. */
export type IdentityRefusal = 'identity-deny' | 'boundary-deny' | 'no-identity-allow' | 'no-boundary-allow';

/** What a principal may do by its own policies: its identity policies, and its permissions boundary if any. */
export interface PrincipalPolicies {
  identity: readonly unknown[];
  /** The boundary's document; undefined when the principal has none. */
  boundary?: unknown;
}

/**
 * A request under a principal's identity policies and permissions boundary, as IAM decides
 * it within one account when no resource policy speaks: an explicit Deny in either refuses;
 * otherwise an identity policy must allow, and, with a boundary, the boundary must allow too.
 * Answers undefined when allowed.
 */
export function identityRefusal(
  request: PolicyRequest,
  policies: PrincipalPolicies,
): IdentityRefusal | undefined {
  const identity = policies.identity.map((policy) => evaluatePolicy(policy, request));
  const boundary = policies.boundary === undefined ? 'allow' : evaluatePolicy(policies.boundary, request);
  if (identity.includes('deny')) return 'identity-deny';
  if (boundary === 'deny') return 'boundary-deny';
  if (!identity.includes('allow')) return 'no-identity-allow';
  if (boundary !== 'allow') return 'no-boundary-allow';
  return undefined;
}

/**
 * IAM's wording of a refusal: `User: PRINCIPAL is not authorized to perform: ACTION on
 * resource: ARN because no identity-based policy allows the ACTION action` (the resource
 * part left out when the request names none the sandbox derives).
 */
export function refusalMessage(
  principalArn: string,
  action: string,
  resource: string | undefined,
  refusal: IdentityRefusal,
): string {
  const onResource = resource === undefined ? '' : ` on resource: ${resource}`;
  const why = {
    'identity-deny': 'with an explicit deny in an identity-based policy',
    'boundary-deny': 'with an explicit deny in a permissions boundary',
    'no-identity-allow': `because no identity-based policy allows the ${action} action`,
    'no-boundary-allow': `because no permissions boundary allows the ${action} action`,
  }[refusal];
  return `User: ${principalArn} is not authorized to perform: ${action}${onResource} ${why}`;
}

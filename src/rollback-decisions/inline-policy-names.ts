import { canonicalJson } from '../plan/index.js';
import type { ResourceRecord } from '../state/index.js';
import { MASK } from '../template/parameters.js';
import type { RollbackStep } from './steps.js';
import {
  INLINE_POLICY_TARGETS,
  INLINE_POLICY_TYPE,
  principalKindOf,
  principalTypeOf,
  sameId,
  type PrincipalKind,
} from '../resource-types/index.js';

/**
 * Spec 000, "IAM inline policy names moved between resources": which inline
 * policy names a rollback step takes off a role, user or group, and whether the
 * state record that still holds such a name gets its document put back at the end.
 */

/** One inline policy name on one principal. */
export interface InlinePolicyName {
  principal: { kind: PrincipalKind; name: string };
  policyName: string;
}

/** The inline policy names a step removes from principals that outlive it. */
export function removedInlinePolicies(step: RollbackStep): InlinePolicyName[] {
  if (step.kind === 'delete' && !step.retain && step.record.type === INLINE_POLICY_TYPE) {
    return namesOn(step.record.properties);
  }
  if (step.kind !== 'revert') return [];
  const { before, current } = step;
  if (current.type === INLINE_POLICY_TYPE && before.type === INLINE_POLICY_TYPE) {
    const kept = namesOn(before.properties);
    return namesOn(current.properties).filter((name) => !kept.some((other) => sameName(other, name)));
  }
  const kind = principalKindOf(current.type);
  if (!kind || before.type !== current.type) return [];
  const keptNames = new Set(ownPolicies(before.properties).map((policy) => policy.name));
  return ownPolicies(current.properties)
    .filter((policy) => !keptNames.has(policy.name))
    .map((policy) => ({ principal: { kind, name: current.physicalId }, policyName: policy.name }));
}

/** A state record that puts `policyName` on `principal`, with the document it records. */
export interface InlinePolicyHolder {
  logicalId: string;
  record: ResourceRecord;
  document: unknown;
}

/** The records in `resources` holding the name on the principal: policies naming it, or the principal's own `Policies`. */
export function holdersOf(
  name: InlinePolicyName,
  resources: Readonly<Record<string, ResourceRecord>>,
): InlinePolicyHolder[] {
  const holders: InlinePolicyHolder[] = [];
  for (const [logicalId, record] of Object.entries(resources)) {
    if (record.type === INLINE_POLICY_TYPE) {
      if (namesOn(record.properties).some((held) => sameName(held, name))) {
        holders.push({ logicalId, record, document: record.properties.PolicyDocument });
      }
      continue;
    }
    const kind = principalKindOf(record.type);
    if (kind !== name.principal.kind || !samePrincipal(kind, record.physicalId, name.principal.name))
      continue;
    const own = ownPolicies(record.properties).find((policy) => policy.name === name.policyName);
    if (own) holders.push({ logicalId, record, document: own.document });
  }
  return holders;
}

export type PutBackDecision =
  { kind: 'none' } | { kind: 'put-back'; holder: InlinePolicyHolder } | { kind: 'warn'; reason: string };

/**
 * Whether the document a state record holds under a removed name goes back on the
 * principal. `unfinished`: logical ids whose own rollback step did not complete
 * (failed, skipped with a warning, or not reached), whose record may still be the
 * failed deploy's.
 */
export function decidePutBack(
  name: InlinePolicyName,
  holders: readonly InlinePolicyHolder[],
  unfinished: ReadonlySet<string>,
): PutBackDecision {
  if (holders.length === 0) return { kind: 'none' };
  const where = `inline policy ${name.policyName} on ${name.principal.kind.toLowerCase()} ${name.principal.name}`;
  const lacks = `the ${name.principal.kind.toLowerCase()} lacks it until the resource next changes or cdkd drift --revert runs`;
  const ids = holders.map((holder) => holder.logicalId).join(', ');
  if (name.policyName.includes(MASK) || holders.some((holder) => containsMask(holder.document))) {
    return warn(`${where}: not put back, its name or the document ${ids} records is redacted; ${lacks}`);
  }
  const documents = new Set(holders.map((holder) => canonicalJson(holder.document)));
  if (documents.size > 1) {
    return warn(`${where}: not put back, ${ids} record different documents under that name; ${lacks}`);
  }
  const pending = holders.filter((holder) => unfinished.has(holder.logicalId));
  if (pending.length > 0) {
    return warn(
      `${where}: not put back, the rollback of ${pending.map((holder) => holder.logicalId).join(', ')} did not complete, so its record may still be the failed deploy's; ${lacks}`,
    );
  }
  return { kind: 'put-back', holder: holders[0]! };
}

/**
 * The holder's properties as they were before the name was removed from the principal:
 * what a provider update goes from, so that putting the name back is all it sends.
 */
export function withoutName(holder: InlinePolicyHolder, name: InlinePolicyName): Record<string, unknown> {
  const properties = { ...holder.record.properties };
  if (holder.record.type === INLINE_POLICY_TYPE) {
    const target = INLINE_POLICY_TARGETS.find((candidate) => candidate.kind === name.principal.kind)!;
    properties[target.property] = stringList(properties[target.property]).filter(
      (principal) => !samePrincipal(name.principal.kind, principal, name.principal.name),
    );
    return properties;
  }
  properties.Policies = (Array.isArray(properties.Policies) ? properties.Policies : []).filter(
    (policy) => policyNameOf(policy) !== name.policyName,
  );
  return properties;
}

function namesOn(properties: Record<string, unknown>): InlinePolicyName[] {
  const policyName = properties.PolicyName;
  if (typeof policyName !== 'string') return [];
  return INLINE_POLICY_TARGETS.flatMap(({ kind, property }) =>
    stringList(properties[property]).map((principal) => ({
      principal: { kind, name: principal },
      policyName,
    })),
  );
}

function ownPolicies(properties: Record<string, unknown>): Array<{ name: string; document: unknown }> {
  if (!Array.isArray(properties.Policies)) return [];
  return properties.Policies.flatMap((policy) => {
    const name = policyNameOf(policy);
    return name === undefined ? [] : [{ name, document: (policy as Record<string, unknown>).PolicyDocument }];
  });
}

function policyNameOf(policy: unknown): string | undefined {
  if (typeof policy !== 'object' || policy === null) return undefined;
  const name = (policy as Record<string, unknown>).PolicyName;
  return typeof name === 'string' ? name : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** IAM principal names are unique regardless of case; policy names on one principal are too, but are kept as spelled. */
function samePrincipal(kind: PrincipalKind, a: string, b: string): boolean {
  return sameId(principalTypeOf(kind), a, b);
}

function sameName(a: InlinePolicyName, b: InlinePolicyName): boolean {
  return (
    a.principal.kind === b.principal.kind &&
    samePrincipal(a.principal.kind, a.principal.name, b.principal.name) &&
    a.policyName === b.policyName
  );
}

function containsMask(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(MASK);
  if (Array.isArray(value)) return value.some(containsMask);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(containsMask);
  return false;
}

function warn(reason: string): PutBackDecision {
  return { kind: 'warn', reason };
}

import { conditionHolds } from '../../policy/conditions.js';

/** Who asks to assume a role: the account its key selects, and the ExternalId it sent. */
export interface TrustCaller {
  accountId: string;
  externalId?: string;
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

const ASSUME = new Set(['sts:AssumeRole', 'sts:*', '*']);

/**
 * Whether a role's trust policy lets `caller` assume it: some Allow statement for
 * sts:AssumeRole names the caller (and its conditions hold), and no such Deny does. The
 * sandbox knows the caller only by account (a 12-digit key selects it), so an AWS principal
 * naming the account (`123456789012`, `arn:aws:iam::123456789012:root`) or a user or role in
 * it counts as the caller; a service principal never does. Conditions are IAM's operators
 * over `aws:PrincipalAccount` and `sts:ExternalId`; a key the sandbox does not know is absent.
 */
export function trustsCaller(policy: unknown, caller: TrustCaller): boolean {
  const applying = list((policy as { Statement?: unknown } | undefined)?.Statement).filter((entry) =>
    appliesTo(entry as TrustStatement, caller),
  ) as TrustStatement[];
  if (applying.some((statement) => statement.Effect === 'Deny')) return false;
  return applying.some((statement) => statement.Effect === 'Allow');
}

interface TrustStatement {
  Effect?: string;
  Action?: unknown;
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

function appliesTo(statement: TrustStatement, caller: TrustCaller): boolean {
  if (!list(statement.Action).some((action) => ASSUME.has(String(action)))) return false;
  return namesCaller(statement.Principal, caller.accountId) && conditionsHold(statement.Condition, caller);
}

function namesCaller(principal: unknown, accountId: string): boolean {
  if (principal === '*') return true;
  return list((principal as { AWS?: unknown } | undefined)?.AWS).some((entry) => {
    const value = String(entry);
    if (value === '*' || value === accountId) return true;
    const arn = /^arn:aws[\w-]*:(?:iam|sts)::(\d{12}):/.exec(value);
    return arn?.[1] === accountId;
  });
}

/** The condition keys a trust policy may test here: the caller's account and the ExternalId it sent. */
function conditionsHold(condition: TrustStatement['Condition'], caller: TrustCaller): boolean {
  return conditionHolds(condition, {
    'aws:PrincipalAccount': caller.accountId,
    ...(caller.externalId !== undefined ? { 'sts:ExternalId': caller.externalId } : {}),
  });
}

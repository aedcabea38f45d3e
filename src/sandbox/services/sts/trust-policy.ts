import { wildcardMatch } from '../../policy/wildcard.js';

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
 * it counts as the caller; a service principal never does. Conditions other than the ones
 * read here make their statement not apply, as an unmet condition would on AWS.
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

const KEYS: Record<string, (caller: TrustCaller) => string | undefined> = {
  'sts:externalid': (caller) => caller.externalId,
  'aws:principalaccount': (caller) => caller.accountId,
};

function conditionsHold(condition: TrustStatement['Condition'], caller: TrustCaller): boolean {
  return Object.entries(condition ?? {}).every(([operator, clauses]) =>
    Object.entries(clauses ?? {}).every(([key, expected]) => {
      const read = KEYS[key.toLowerCase()];
      if (!read) return false;
      const actual = read(caller);
      const wanted = list(expected).map(String);
      if (actual === undefined) return operator.endsWith('IfExists');
      switch (operator.replace(/IfExists$/, '')) {
        case 'StringEquals':
          return wanted.includes(actual);
        case 'StringNotEquals':
          return !wanted.includes(actual);
        case 'StringLike':
          return wanted.some((pattern) => wildcardMatch(pattern, actual, false));
        default:
          return false;
      }
    }),
  );
}

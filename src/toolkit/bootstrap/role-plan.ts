/** A bootstrap role as it is in IAM (undefined: not there yet) or as the flags want it. */
export interface RoleShape {
  /** Accounts its trust policy lets assume it, sorted. */
  trustedAccounts: string[];
  /** Managed policy ARNs attached to it, sorted. */
  policies: string[];
  permissionsBoundary?: string;
  tags: Record<string, string>;
}

/** What the flags say about a role; an absent one keeps what the role has (as the CDK keeps previous values). */
export interface RoleFlags {
  ownAccount: string;
  trust?: readonly string[];
  policies?: readonly string[];
  defaultPolicies: readonly string[];
  permissionsBoundary?: string;
  tags?: Record<string, string>;
}

export type RoleChange =
  | { kind: 'create'; shape: RoleShape }
  | { kind: 'trust'; from: string[]; to: string[] }
  | { kind: 'attach'; policy: string }
  | { kind: 'detach'; policy: string }
  | { kind: 'boundary'; from?: string; to: string }
  | { kind: 'tag'; tags: Record<string, string> }
  | { kind: 'untag'; keys: string[] };

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * The role the flags ask for: its own account always trusted, plus `--trust`; the policies
 * given, else those it has, else the default; the boundary and tags given, else those it has.
 */
export function desiredRole(flags: RoleFlags, current: RoleShape | undefined): RoleShape {
  const boundary = flags.permissionsBoundary ?? current?.permissionsBoundary;
  return {
    trustedAccounts: sorted([flags.ownAccount, ...(flags.trust ?? current?.trustedAccounts ?? [])]),
    policies: sorted(flags.policies ?? current?.policies ?? flags.defaultPolicies),
    ...(boundary ? { permissionsBoundary: boundary } : {}),
    tags: flags.tags ?? current?.tags ?? {},
  };
}

/** The calls that bring `current` to `desired`; none when they agree (a re-run converges). */
export function roleChanges(desired: RoleShape, current: RoleShape | undefined): RoleChange[] {
  if (!current) return [{ kind: 'create', shape: desired }];
  const changes: RoleChange[] = [];
  if (desired.trustedAccounts.join() !== current.trustedAccounts.join())
    changes.push({ kind: 'trust', from: current.trustedAccounts, to: desired.trustedAccounts });
  for (const policy of desired.policies)
    if (!current.policies.includes(policy)) changes.push({ kind: 'attach', policy });
  for (const policy of current.policies)
    if (!desired.policies.includes(policy)) changes.push({ kind: 'detach', policy });
  if (desired.permissionsBoundary && desired.permissionsBoundary !== current.permissionsBoundary)
    changes.push({
      kind: 'boundary',
      ...(current.permissionsBoundary ? { from: current.permissionsBoundary } : {}),
      to: desired.permissionsBoundary,
    });
  const changedTags = Object.fromEntries(
    Object.entries(desired.tags).filter(([key, value]) => current.tags[key] !== value),
  );
  if (Object.keys(changedTags).length > 0) changes.push({ kind: 'tag', tags: changedTags });
  const removed = Object.keys(current.tags).filter((key) => !(key in desired.tags));
  if (removed.length > 0) changes.push({ kind: 'untag', keys: removed.sort() });
  return changes;
}

/** A trust policy letting each account's principals (that its own IAM policies allow) assume the role. */
export function trustPolicy(partition: string, accounts: readonly string[]): Record<string, unknown> {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: accounts.map((account) => `arn:${partition}:iam::${account}:root`) },
        Action: 'sts:AssumeRole',
      },
    ],
  };
}

/** The accounts a trust policy names (account roots and bare ids); other principals are not read. */
export function trustedAccountsOf(policy: unknown): string[] {
  const list = (value: unknown): unknown[] =>
    Array.isArray(value) ? value : value === undefined ? [] : [value];
  const accounts = list((policy as { Statement?: unknown } | undefined)?.Statement).flatMap((entry) => {
    const statement = entry as { Effect?: string; Principal?: { AWS?: unknown } };
    if (statement.Effect !== 'Allow') return [];
    return list(statement.Principal?.AWS).flatMap((principal) => {
      const match = /^(?:arn:aws[\w-]*:iam::)?(\d{12})(?::root)?$/.exec(String(principal));
      return match ? [match[1]!] : [];
    });
  });
  return sorted(accounts);
}

/** One line per change, for `--show-plan` and for what bootstrap did. */
export function describeChange(roleName: string, change: RoleChange): string {
  switch (change.kind) {
    case 'create': {
      const { shape } = change;
      const boundary = shape.permissionsBoundary ? `; permissions boundary ${shape.permissionsBoundary}` : '';
      return `create role ${roleName}: trusts ${shape.trustedAccounts.join(', ')}; policies ${shape.policies.join(', ')}${boundary}`;
    }
    case 'trust':
      return `update role ${roleName}: trust ${change.from.join(', ') || '(none)'} -> ${change.to.join(', ')}`;
    case 'attach':
      return `update role ${roleName}: attach ${change.policy}`;
    case 'detach':
      return `update role ${roleName}: detach ${change.policy}`;
    case 'boundary':
      return `update role ${roleName}: permissions boundary ${change.from ?? '(none)'} -> ${change.to}`;
    case 'tag':
      return `update role ${roleName}: tags ${Object.entries(change.tags)
        .map(([key, value]) => `${key}=${value}`)
        .join(', ')}`;
    case 'untag':
      return `update role ${roleName}: remove tags ${change.keys.join(', ')}`;
  }
}

import type { SandboxContext } from '../../service-module.js';
import type { IamStore } from './store.js';

/** What another sandbox module may know about a role, looked up by its ARN. */
export interface RoleFacts {
  roleName: string;
  roleId: string;
  arn: string;
  /** Epoch ms. */
  createdAt: number;
  /** The trust policy, parsed. */
  assumeRolePolicy: unknown;
}

/**
 * The IAM module's roles as other modules of the same sandbox see them, for emulating
 * IAM's eventual consistency: a role is usable by a service only once it has
 * propagated, `latency.types['AWS::IAM::Role'].create` ms after its creation (zero,
 * so immediately, until set through `PUT /_sandbox/latency`).
 *
 * A consumer (the Lambda module) calls `iamRoleDirectory(context)` with its own
 * SandboxContext; the directory is shared per sandbox and reads the IAM store at call
 * time, so the order in which modules start does not matter.
 */
export class RoleDirectory {
  private store: IamStore | undefined;

  constructor(private readonly context: SandboxContext) {}

  /** Called by the IAM module once its store is loaded. */
  bind(store: IamStore): void {
    this.store = store;
  }

  lookup(roleArn: string): RoleFacts | undefined {
    const name = /^arn:aws[\w-]*:iam::\d{12}:role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(roleArn)?.[1];
    const record = name === undefined ? undefined : this.store?.findPrincipal('Role', name);
    if (!record || record.arn !== roleArn) return undefined;
    return {
      roleName: record.name,
      roleId: record.id,
      arn: record.arn,
      createdAt: record.createdAt,
      assumeRolePolicy: JSON.parse(record.assumeRolePolicyDocument ?? '{}') as unknown,
    };
  }

  /** The configured propagation window, in ms. */
  propagationMs(): number {
    return this.context.latency.forType('AWS::IAM::Role', 'create');
  }

  /**
   * Whether `servicePrincipal` (e.g. `lambda.amazonaws.com`) can assume the role at `now`:
   * the role exists, has propagated, and its trust policy allows the service.
   */
  assumableBy(roleArn: string, servicePrincipal: string, now = Date.now()): boolean {
    const facts = this.lookup(roleArn);
    if (!facts || now - facts.createdAt < this.propagationMs()) return false;
    return trusts(facts.assumeRolePolicy, servicePrincipal);
  }
}

/** An Allow statement for sts:AssumeRole (or `sts:*`/`*`) naming the service principal. */
export function trusts(policy: unknown, servicePrincipal: string): boolean {
  const list = (value: unknown): unknown[] =>
    Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list((policy as { Statement?: unknown }).Statement).some((entry) => {
    const statement = entry as { Effect?: string; Action?: unknown; Principal?: unknown };
    if (statement.Effect !== 'Allow') return false;
    const actions = list(statement.Action);
    if (!actions.some((action) => action === 'sts:AssumeRole' || action === 'sts:*' || action === '*'))
      return false;
    if (statement.Principal === '*') return true;
    const services = list((statement.Principal as { Service?: unknown } | undefined)?.Service);
    return services.includes(servicePrincipal);
  });
}

/** One directory per sandbox, keyed by its (per-sandbox) resource handler registry. */
const directories = new WeakMap<object, RoleDirectory>();

export function iamRoleDirectory(context: SandboxContext): RoleDirectory {
  let directory = directories.get(context.resources);
  if (!directory) {
    directory = new RoleDirectory(context);
    directories.set(context.resources, directory);
  }
  return directory;
}

import type { SandboxContext } from '../service-module.js';
import { roleReader } from '../ports/index.js';

/**
 * Whether a service can assume an execution role now, emulating IAM propagation: a role
 * younger than the window (the latency model's `AWS::IAM::Role` create delay, 0 until set
 * through `PUT /_sandbox/latency`) cannot be assumed yet, as on AWS (Lambda answers that it
 * "cannot be assumed by Lambda", Step Functions that the principal "is not authorized to
 * assume the provided role").
 */
export interface RoleAges {
  assumable(roleArn: string, now: number): boolean;
}

/**
 * A role the sandbox IAM module holds is judged by IAM (its creation time and its trust
 * policy naming `principal`). A role IAM does not know (made outside this sandbox's IAM) is
 * aged from its first sight here, the first call naming it.
 */
export function sandboxRoleAges(context: SandboxContext, principal: string): RoleAges {
  const firstSeen = new Map<string, number>();
  return {
    assumable(roleArn, now) {
      const roles = roleReader.of(context);
      if (roles?.holds(roleArn)) return roles.assumableBy(roleArn, principal, now);
      if (!firstSeen.has(roleArn)) firstSeen.set(roleArn, now);
      return now - firstSeen.get(roleArn)! >= context.latency.forType('AWS::IAM::Role', 'create');
    },
  };
}

import type { SandboxContext } from '../../service-module.js';
import { roleReader } from '../../ports/index.js';

/**
 * Whether Lambda can assume an execution role now, emulating IAM propagation: a role
 * younger than the window (the latency model's `AWS::IAM::Role` create delay, 0 until set
 * through `PUT /_sandbox/latency`) "cannot be assumed by Lambda", as on AWS.
 */
export interface RoleAges {
  assumable(roleArn: string, now: number): boolean;
}

const LAMBDA_PRINCIPAL = 'lambda.amazonaws.com';

/**
 * A role the sandbox IAM module holds is judged by IAM (its creation time and trust
 * policy). A role IAM does not know (made outside this sandbox's IAM) is aged from its
 * first sight here, the first CreateFunction or UpdateFunctionConfiguration naming it.
 */
export function sandboxRoleAges(context: SandboxContext): RoleAges {
  const firstSeen = new Map<string, number>();
  return {
    assumable(roleArn, now) {
      const roles = roleReader.of(context);
      if (roles?.holds(roleArn)) return roles.assumableBy(roleArn, LAMBDA_PRINCIPAL, now);
      if (!firstSeen.has(roleArn)) firstSeen.set(roleArn, now);
      return now - firstSeen.get(roleArn)! >= context.latency.forType('AWS::IAM::Role', 'create');
    },
  };
}

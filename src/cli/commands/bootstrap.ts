import type { Command } from 'commander';
import { collect } from '../options/app-options.js';
import { sessionFor } from '../options/session-from-options.js';

interface BootstrapFlags {
  trust: string[];
  trustForLookup: string[];
  executionPolicies?: string;
  permissionsBoundary?: string;
  qualifier?: string;
  tags: string[];
  terminationProtection?: boolean;
  showPlan?: boolean;
  stateHistory: string;
}

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap [environment]')
    .description(
      'create the state bucket, the asset bucket and the deploy role other accounts deploy through (safe to run again); environment: aws://ACCOUNT/REGION',
    )
    .option(
      '--trust <account>',
      'an account whose principals may deploy here through the deploy role (repeatable)',
      collect,
      [],
    )
    .option(
      '--trust-for-lookup <account>',
      'an account that may only look up context here (repeatable)',
      collect,
      [],
    )
    .option(
      '--execution-policies <arns>',
      'managed policies the deploy role acts with, comma-separated (default: AdministratorAccess)',
    )
    .option(
      '--permissions-boundary <policy>',
      "a managed policy (name or ARN) bounding the roles' permissions",
    )
    .option(
      '--qualifier <qualifier>',
      "the roles' qualifier, as the app's synthesizer names it (default hnb659fds)",
    )
    .option('--tags <KEY=VALUE>', 'a tag on the buckets and roles (repeatable)', collect, [])
    .option('--termination-protection', 'mark the roles with the tag cdkd:termination-protection=true')
    .option('--show-plan', 'print what would be created or changed, and change nothing')
    .option(
      '--state-history <n>',
      'earlier versions of each state document the state bucket keeps (1-100; cdkd undo goes back that far)',
      '20',
    )
    .action(async (environment: string | undefined, flags: BootstrapFlags, command: Command) => {
      const [{ bootstrap }, { parseTagFlags }, { parseStateHistory }] = await Promise.all([
        import('../../toolkit/bootstrap/bootstrap.js'),
        import('../../toolkit/stacks/stack-tags.js'),
        import('../../toolkit/bootstrap/state-history.js'),
      ]);
      const stateHistory = parseStateHistory(flags.stateHistory);
      const result = await bootstrap(sessionFor(command), {
        stateHistory,
        ...(environment ? { environment } : {}),
        ...(flags.trust.length > 0 ? { trust: flags.trust } : {}),
        ...(flags.trustForLookup.length > 0 ? { trustForLookup: flags.trustForLookup } : {}),
        ...(flags.executionPolicies
          ? { executionPolicies: flags.executionPolicies.split(',').map((arn) => arn.trim()) }
          : {}),
        ...(flags.permissionsBoundary ? { permissionsBoundary: flags.permissionsBoundary } : {}),
        ...(flags.qualifier ? { qualifier: flags.qualifier } : {}),
        ...(flags.tags.length > 0 ? { tags: parseTagFlags(flags.tags) } : {}),
        ...(flags.terminationProtection ? { terminationProtection: true } : {}),
        ...(flags.showPlan ? { showPlan: true } : {}),
      });
      const out = (line: string) => process.stdout.write(`${line}\n`);
      for (const [role, bucket] of [
        ['State bucket', result.stateBucket],
        ['Asset bucket', result.assetBucket],
      ] as const) {
        const status = result.planned
          ? bucket.created
            ? 'would be created'
            : 'present; its settings would be applied again'
          : bucket.created
            ? 'created'
            : 'already present, settings applied';
        out(`${role}: ${bucket.name} (${bucket.region}) ${status}`);
      }
      for (const role of result.roles) {
        if (role.changes.length === 0) out(`Role ${role.name}: up to date`);
        for (const change of role.changes)
          out(result.planned ? `Would ${change}` : `${change.charAt(0).toUpperCase()}${change.slice(1)}`);
      }
      if (!result.planned)
        out(`State history: the last ${stateHistory} earlier versions of each state document are kept.`);
      out(
        result.planned
          ? `Nothing was changed (--show-plan) in account ${result.accountId}, ${result.region}.`
          : `Bootstrapped account ${result.accountId}, ${result.region}.`,
      );
    });
}

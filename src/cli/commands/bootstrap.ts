import type { Command } from 'commander';
import { sessionFor } from '../session-from-options.js';

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('create the state bucket and the asset bucket (safe to run again)')
    .action(async (_options: unknown, command: Command) => {
      const { bootstrap } = await import('../../toolkit/bootstrap/bootstrap.js');
      const result = await bootstrap(sessionFor(command));
      for (const [role, bucket] of [
        ['State bucket', result.stateBucket],
        ['Asset bucket', result.assetBucket],
      ] as const) {
        const status = bucket.created ? 'created' : 'already present, settings applied';
        process.stdout.write(`${role}: ${bucket.name} (${bucket.region}) ${status}\n`);
      }
      process.stdout.write(`Bootstrapped account ${result.accountId}.\n`);
    });
}

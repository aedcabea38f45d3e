import type { Command } from 'commander';
import { sessionFor } from '../session-from-options.js';

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('create the state bucket and the asset bucket (safe to run again)')
    .option(
      '--state-history <n>',
      'earlier versions of each state document the state bucket keeps (1-100; cdkd undo goes back that far)',
      '20',
    )
    .action(async (options: { stateHistory: string }, command: Command) => {
      const { bootstrap } = await import('../../toolkit/bootstrap/bootstrap.js');
      const { parseStateHistory } = await import('../../toolkit/bootstrap/state-history.js');
      const stateHistory = parseStateHistory(options.stateHistory);
      const result = await bootstrap(sessionFor(command), { stateHistory });
      for (const [role, bucket] of [
        ['State bucket', result.stateBucket],
        ['Asset bucket', result.assetBucket],
      ] as const) {
        const status = bucket.created ? 'created' : 'already present, settings applied';
        process.stdout.write(`${role}: ${bucket.name} (${bucket.region}) ${status}\n`);
      }
      process.stdout.write(
        `State history: the last ${stateHistory} earlier versions of each state document are kept.\n`,
      );
      process.stdout.write(`Bootstrapped account ${result.accountId}.\n`);
    });
}

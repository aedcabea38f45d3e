import type { Command } from 'commander';
import { forceUnlock } from '../../toolkit/force-unlock.js';
import { globalOptions } from '../global-options.js';
import { confirm } from '../confirm.js';
import { sessionFor } from '../session-from-options.js';

export function registerForceUnlock(program: Command): void {
  program
    .command('force-unlock <stack>')
    .description("delete a stack's lock left behind by a cdkd process that is gone")
    .action(async (stackName: string, _options: unknown, command: Command) => {
      const options = globalOptions(command);
      const session = sessionFor(command);
      const region = options.region ?? (await session.region());
      await confirm(
        `Delete the lock on stack ${stackName} (${region})? Only do this if no cdkd process is working on it.`,
        options.yes ?? false,
      );
      const outcome = await forceUnlock(session, { stackName, region });
      process.stdout.write(`${outcome}\n`);
    });
}

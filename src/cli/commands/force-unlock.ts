import { hostname } from 'node:os';
import type { Command } from 'commander';
import { forceUnlock } from '../../toolkit/state/force-unlock.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

export function registerForceUnlock(program: Command): void {
  program
    .command('force-unlock <stack>')
    .addOption(accountOption())
    .description("delete a stack's lock left behind by a cdkd process that is gone")
    .option('--force', 'delete it even when its holder is a cdkd process still running on this host')
    .action(async (stackName: string, flags: { force?: boolean }, command: Command) => {
      const options = globalOptions(command);
      const session = await stateSessionFor(command);
      const stack = { stackName, region: options.region ?? (await session.region()) };
      const name = `${stack.stackName} (${stack.region})`;
      const outcome = await forceUnlock(
        session,
        stack,
        { force: flags.force ?? false, thisHost: hostname(), now: new Date() },
        { io: cliIoHost({ yes: options.yes ?? false }), command: 'force-unlock' },
      );
      if (outcome.kind === 'not-locked') {
        process.stdout.write(`Stack ${name} was not locked.\n`);
        return;
      }
      const { holder } = outcome;
      const by = holder
        ? ` held by ${holder.owner}${holder.operation ? ` for ${holder.operation}` : ''}`
        : '';
      process.stdout.write(`Deleted the ${holder ? '' : 'unreadable '}lock on stack ${name}${by}.\n`);
    });
}

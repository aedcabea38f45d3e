import type { Command } from 'commander';
import { globalOptions } from '../options/global-options.js';
import { interruptible } from '../interrupts/interrupts.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';
import { writeOrphaned } from './orphan.js';

export function registerStateOrphan(state: Command): void {
  state
    .command('orphan <stack> <logicalIds...>')
    .addOption(accountOption())
    .description('stop managing resources, from state alone (no synthesis); AWS is untouched')
    .option('--force', 'orphan even while another resource in state still references them')
    .action(
      async (stackName: string, logicalIds: string[], options: { force?: boolean }, command: Command) => {
        const { orphanFromState } = await import('../../toolkit/state/orphan.js');
        const region = globalOptions(command).region;
        const session = await stateSessionFor(command);
        const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
        writeOrphaned(
          await interruptible('state orphan', { session, warn }, (signal) =>
            orphanFromState({
              session,
              stackName,
              logicalIds,
              force: options.force ?? false,
              signal,
              ...(region ? { region } : {}),
            }),
          ),
        );
      },
    );
}

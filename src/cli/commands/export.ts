import type { Command } from 'commander';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

export function registerExport(program: Command): void {
  program
    .command('export <stack>')
    .addOption(accountOption())
    .description(
      'hand a cdkd stack to CloudFormation: CloudFormation imports every resource (IMPORT change set), then cdkd forgets the stack',
    )
    .action(async (stackName: string, _options: unknown, command: Command) => {
      const { exportStack } = await import('../../toolkit/export/index.js');
      const global = globalOptions(command);
      const session = await stateSessionFor(command);
      const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
      const result = await interruptible('export', { session, warn }, () =>
        exportStack({
          session,
          stackName,
          io: cliIoHost({ yes: global.yes ?? false, warn }),
          command: 'export',
          ...(global.region ? { region: global.region } : {}),
        }),
      );
      process.stdout.write(
        result.alreadyDone
          ? `${result.stackName}: already exported; CloudFormation manages it and cdkd holds no state for it.\n`
          : `${result.stackName}: exported to CloudFormation (${result.imported.join(', ')}); cdkd's state for it is removed.\n`,
      );
    });
}

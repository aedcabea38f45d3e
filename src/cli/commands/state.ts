import type { Command } from 'commander';
import { listStacks, showStack } from '../../toolkit/state/state-inspection.js';
import { globalOptions } from '../options/global-options.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';
import { renderStateDocument } from '../render/render-state.js';
import { registerStateDestroy } from './state-destroy.js';
import { registerStateOrphan } from './state-orphan.js';
import { registerStateRefreshObserved } from './state-refresh-observed.js';

export function registerState(program: Command): void {
  const state = program.command('state').description('inspect and repair the state cdkd keeps in S3');

  state
    .command('list')
    .addOption(accountOption())
    .alias('ls')
    .description('list the stacks recorded in the state bucket')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { bucket, stacks } = await listStacks(await stateSessionFor(command));
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ bucket, stacks }, null, 2)}\n`);
        return;
      }
      if (stacks.length === 0) {
        process.stdout.write(`No stacks recorded in s3://${bucket}.\n`);
        return;
      }
      for (const stack of stacks) {
        process.stdout.write(
          `${stack.stackName}\t${stack.region}\t${stack.resourceCount} resources\tupdated ${stack.updatedAt}\n`,
        );
      }
    });

  state
    .command('show <stack>')
    .addOption(accountOption())
    .description("print a stack's recorded state")
    .option('--json', 'print the state document as JSON')
    .action(async (stackName: string, options: { json?: boolean }, command: Command) => {
      const { location, document } = await showStack(
        await stateSessionFor(command),
        stackName,
        globalOptions(command).region,
      );
      if (options.json) {
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        return;
      }
      process.stdout.write(renderStateDocument(location, document));
    });
  registerStateOrphan(state);
  registerStateRefreshObserved(state);
  registerStateDestroy(state);
}

import { hostname } from 'node:os';
import type { Command } from 'commander';
import {
  deleteShownLock,
  describeHolder,
  processRunning,
  readLock,
  refuseRunningHolder,
  runningLocalHolder,
} from '../../toolkit/force-unlock.js';
import { globalOptions } from '../global-options.js';
import { confirm } from '../confirm.js';
import { sessionFor } from '../session-from-options.js';

export function registerForceUnlock(program: Command): void {
  program
    .command('force-unlock <stack>')
    .description("delete a stack's lock left behind by a cdkd process that is gone")
    .option('--force', 'delete it even when its holder is a cdkd process still running on this host')
    .action(async (stackName: string, flags: { force?: boolean }, command: Command) => {
      const options = globalOptions(command);
      const session = sessionFor(command);
      const stack = { stackName, region: options.region ?? (await session.region()) };
      const name = `${stack.stackName} (${stack.region})`;
      const found = await readLock(session, stack);
      if (found.kind === 'absent') {
        process.stdout.write(`Stack ${name} was not locked.\n`);
        return;
      }
      const holder =
        found.kind === 'readable'
          ? describeHolder(found.document, new Date())
          : 'a lock.json that cannot be read';
      if (found.kind === 'readable' && !flags.force) {
        const pid = runningLocalHolder(found.document.owner, hostname(), processRunning);
        if (pid !== undefined) throw refuseRunningHolder(stack, pid, holder);
      }
      process.stdout.write(`Stack ${name} is locked: ${holder}.\n`);
      await confirm(
        `Delete the lock on stack ${name}? Only do this if no cdkd process is working on it.`,
        options.yes ?? false,
      );
      await deleteShownLock(session, stack, found.etag);
      const by =
        found.kind === 'readable'
          ? ` held by ${found.document.owner}${found.document.operation ? ` for ${found.document.operation}` : ''}`
          : '';
      process.stdout.write(
        `Deleted the ${found.kind === 'readable' ? '' : 'unreadable '}lock on stack ${name}${by}.\n`,
      );
    });
}

import type { Command } from 'commander';
import type { OrphanedStack } from '../../toolkit/index.js';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { interruptible } from '../interrupts/interrupts.js';
import { sessionFor } from '../options/session-from-options.js';

interface OrphanOptions extends AppOptions {
  force?: boolean;
}

export function registerOrphan(program: Command): void {
  const command = program
    .command('orphan')
    .description('stop managing resources without deleting them: their records leave state, AWS is untouched')
    .argument('<stack>', 'the stack')
    .argument('<logicalIds...>', 'the resources to orphan');
  addAppOptions(command)
    .option('--force', 'orphan even while another resource in state still references them')
    .action(async (stack: string, logicalIds: string[], options: OrphanOptions, cmd: Command) => {
      const { orphanFromApp } = await import('../../toolkit/state/orphan.js');
      const assembly = await synthesizeFor(cmd, options);
      const session = sessionFor(cmd);
      const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
      const result = await interruptible('orphan', { session, warn }, (signal) =>
        orphanFromApp({ session, assembly, stack, logicalIds, force: options.force ?? false, signal }),
      );
      writeOrphaned(result);
    });
}

/** What `orphan` and `state orphan` print: each resource now untracked, and what still points at it. */
export function writeOrphaned(result: OrphanedStack): void {
  for (const resource of result.orphaned) {
    process.stdout.write(
      `${result.stackName}: ${resource.logicalId} (${resource.type}) ${resource.physicalId} orphaned: left in AWS, no longer tracked by cdkd.\n`,
    );
  }
  for (const entry of result.forcedPast) {
    process.stderr.write(
      `Warning: ${entry.readers.join(', ')} still reference ${entry.logicalId}, which cdkd no longer tracks.\n`,
    );
  }
  if (result.stillDeclared.length > 0) {
    process.stderr.write(
      `Note: the app still declares ${result.stillDeclared.join(', ')}; remove ${result.stillDeclared.length === 1 ? 'it' : 'them'} from the app, or the next deploy creates ${result.stillDeclared.length === 1 ? 'it' : 'them'} again.\n`,
    );
  }
}

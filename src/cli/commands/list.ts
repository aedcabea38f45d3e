import type { Command } from 'commander';
import type { StackArtifact } from '../../assembly/index.js';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';

interface ListOptions extends AppOptions {
  long?: boolean;
  showDependencies?: boolean;
  json?: boolean;
}

export function registerList(program: Command): void {
  addAppOptions(
    program
      .command('list')
      .alias('ls')
      .description("list the app's stacks in dependency order")
      .argument('[stacks...]', 'stack names, display paths (Stage/Stack) or wildcards; default: every stack'),
  )
    .option('-l, --long', 'print each stack with its name and environment')
    .option('-d, --show-dependencies', 'print the stacks each stack depends on')
    .option('--json', 'print JSON')
    .action(async (patterns: string[], options: ListOptions, command: Command) => {
      const { selectStacks } = await import('../../assembly/index.js');
      const { stackLabel } = await import('../render/render-stacks.js');
      const assembly = await synthesizeFor(command, options);
      const stacks = selectStacks(assembly, { patterns, defaultSelection: 'all', extend: 'none' });
      if (!options.long && !options.showDependencies) {
        process.stdout.write(
          options.json
            ? `${JSON.stringify(
                stacks.map((stack) => stack.displayName),
                null,
                2,
              )}\n`
            : stacks.map((stack) => `${stackLabel(stack)}\n`).join(''),
        );
        return;
      }
      const rows = stacks.map((stack) => describe(stack, options));
      const { stringify } = await import('yaml');
      process.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : stringify(rows));
    });
}

function describe(stack: StackArtifact, options: ListOptions): Record<string, unknown> {
  return {
    id: stack.displayName,
    ...(options.long
      ? {
          name: stack.stackName,
          environment: {
            account: stack.environment.account,
            region: stack.environment.region,
            name: stack.environment.name,
          },
        }
      : {}),
    ...(options.showDependencies ? { dependencies: stack.dependencies } : {}),
  };
}

import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { noEventsLine, renderEvents } from '../render-events.js';
import { sessionFor } from '../session-from-options.js';

export function registerEvents(program: Command): void {
  program
    .command('events <stack>')
    .description("print a stack's recorded deployment events, oldest first (kept after a destroy)")
    .option('--json', 'print the events as a JSON array')
    .action(async (stackName: string, options: { json?: boolean }, command: Command) => {
      const { stackEvents } = await import('../../toolkit/stack-events.js');
      const session = sessionFor(command);
      const region = globalOptions(command).region ?? (await session.region());
      const events = await stackEvents({ session, stackName, region });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
        return;
      }
      if (events.length === 0) {
        process.stdout.write(noEventsLine(stackName, region));
        return;
      }
      process.stdout.write(renderEvents(events));
    });
}

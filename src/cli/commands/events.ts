import type { Command } from 'commander';
import { globalOptions } from '../options/global-options.js';
import { noEventsLine, renderEvents } from '../render/render-events.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';
import type { Session } from '../../toolkit/index.js';

export function registerEvents(program: Command): void {
  program
    .command('events <stack>')
    .addOption(accountOption())
    .description("print a stack's recorded deployment events, oldest first (kept after a destroy)")
    .option('--json', 'print the events as a JSON array')
    .option('--html <file>', "write the stack's deploy timelines as one self-contained HTML file")
    .action(async (stackName: string, options: { json?: boolean; html?: string }, command: Command) => {
      const { stackEvents } = await import('../../toolkit/state/stack-events.js');
      const session = await stateSessionFor(command);
      const region = globalOptions(command).region ?? (await session.region());
      if (options.html !== undefined) {
        await writeEventsHtml(session, { stackName, region }, options.html);
        return;
      }
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

async function writeEventsHtml(session: Session, ref: { stackName: string; region: string }, file: string) {
  const [{ openUiData }, { eventsHtml }, { UI_ASSETS }, { writeHtmlFile }] = await Promise.all([
    import('../../toolkit/ui/ui-data.js'),
    import('../../ui/events-html.js'),
    import('../../ui/assets.js'),
    import('../render/html-file.js'),
  ]);
  const history = await (await openUiData(session)).events(ref);
  await writeHtmlFile(file, await eventsHtml(UI_ASSETS, { ...ref, ...history }));
  process.stderr.write(
    `Wrote ${history.events.length} events of ${ref.stackName} (${ref.region}) to ${file}.\n`,
  );
}

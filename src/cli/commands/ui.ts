import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { sessionFor } from '../options/session-from-options.js';

interface UiOptions extends AppOptions {
  port?: string;
  allRegions?: boolean;
}

export function registerUi(program: Command): void {
  addAppOptions(
    program
      .command('ui')
      .description(
        "serve a local page over cdkd's state: stacks, dependency graphs, deploy timelines, the sandbox (with --app: a pending diff on the graph)",
      ),
  )
    .option('--port <port>', 'port on 127.0.0.1 (default: a free one)')
    .option('--all-regions', "list every region's stacks, not only the current region's")
    .action(async (options: UiOptions, command: Command) => {
      const port = parsePort(options.port);
      const [{ openUiData }, { UiServiceData }, { startUiServer }, { UI_ASSETS }] = await Promise.all([
        import('../../toolkit/ui/ui-data.js'),
        import('../../toolkit/ui/ui-service-data.js'),
        import('../../ui/server.js'),
        import('../../ui/assets.js'),
      ]);
      const session = sessionFor(command);
      const data = await openUiData(session, { allRegions: options.allRegions === true });
      // With --app, a stack's page can overlay what `cdkd diff` would change (synthesized when asked).
      const diff = options.app
        ? async (ref: { stackName: string }) => {
            const { pendingChanges } = await import('../../toolkit/ui/ui-diff.js');
            return pendingChanges(session, await synthesizeFor(command, options), ref.stackName);
          }
        : undefined;
      const endpoint = process.env.AWS_ENDPOINT_URL;
      const server = await startUiServer({
        data,
        port,
        assets: UI_ASSETS,
        ...(endpoint ? { sandboxEndpoint: endpoint, services: new UiServiceData(session.clients) } : {}),
        ...(diff ? { diff } : {}),
      });
      // Listening for Ctrl-C before saying so: a signal sent on seeing the line stops it cleanly.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      process.stdout.write(`cdkd ui: open ${server.url}\n(Ctrl-C stops it)\n`);
      await stopped;
      await server.close();
    });
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CdkdError('UI_INVALID_OPTION', `--port ${text} is not a port number.`, {
      hint: 'Give a whole number from 1 to 65535, or leave --port out to use a free port.',
    });
  }
  return port;
}

import type { Command } from 'commander';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { sessionFor } from '../options/session-from-options.js';

interface PublishAssetsOptions extends AppOptions {
  all?: boolean;
}

export function registerPublishAssets(program: Command): void {
  addAppOptions(
    program
      .command('publish-assets')
      .description(
        "publish the stacks' assets to cdkd's asset bucket without deploying (a pipeline's publish step)",
      )
      .argument('[stacks...]', 'stack names, display paths or wildcards; default: the only stack'),
  )
    .option('--all', 'every stack of the app')
    .action(async (patterns: string[], options: PublishAssetsOptions, cmd: Command) => {
      const { publishAssetsApp } = await import('../../toolkit/deploy/publish-assets-app.js');
      const assembly = await synthesizeFor(cmd, options);
      const published = await publishAssetsApp({
        session: sessionFor(cmd),
        assembly,
        patterns,
        all: options.all ?? false,
        io: cliIoHost({ yes: globalOptions(cmd).yes ?? false }),
        command: 'publish-assets',
        ...(globalOptions(cmd).verbose ? { verbose: true } : {}),
      });
      for (const { stack, bucket } of published)
        process.stdout.write(`${stack}: assets published to s3://${bucket} (nothing deployed)\n`);
    });
}

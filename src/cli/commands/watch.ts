import { Option, type Command } from 'commander';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { namePrefixSetting } from '../../assembly/name-prefix-setting.js';
import { APPROVAL_LEVELS, type ApprovalLevel } from '../../assembly/approval-level.js';
import { REQUIRE_APPROVAL_ENV, requireApprovalSetting } from '../../assembly/require-approval-setting.js';
import { unlessInterrupted } from '../../interrupted.js';
import {
  addDeployTuning,
  addRoutingOptions,
  type DeployTuning,
  type RoutingFlagOptions,
} from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { handleInterrupts } from '../interrupts/interrupts.js';
import { cliIoHost } from '../prompts/io-host.js';
import { createProgress } from '../progress/progress.js';
import { outputFailureWarnings, renderOutputs } from '../render/render-outputs.js';
import { renderError } from '../render/render-error.js';
import { sessionFor } from '../options/session-from-options.js';

interface WatchCommandOptions extends AppOptions, DeployTuning, RoutingFlagOptions {
  all?: boolean;
  exclusively?: boolean;
  logs?: boolean;
  rollback: boolean;
  forceStatefulRecreation?: boolean;
  requireApproval?: ApprovalLevel;
}

export function registerWatch(program: Command): void {
  const command = program
    .command('watch')
    .description(
      "deploy, then redeploy the stacks a change to the app's files changes (the ordinary journaled deploy)",
    )
    .argument('[stacks...]', 'stack names, display paths or wildcards; default: the only stack');
  addRoutingOptions(addDeployTuning(addAppOptions(command)))
    .option('--all', 'watch every stack of the app')
    .option('-e, --exclusively', 'only the named stacks, not the stacks they depend on')
    .option('--logs', "print the stacks' Lambda functions' CloudWatch Logs lines as they come")
    .option('--no-rollback', 'leave a failed deploy as it stopped, its journal kept for cdkd rollback')
    .option('--force-stateful-recreation', 'allow replacing resources that hold data')
    .addOption(
      new Option(
        '--require-approval <level>',
        `which changes stop to ask before deploying (default: ${REQUIRE_APPROVAL_ENV}, then cdk.json "requireApproval", then broadening)`,
      ).choices(APPROVAL_LEVELS),
    )
    .action(async (patterns: string[], options: WatchCommandOptions, cmd: Command) => {
      const { watchApp } = await import('../../toolkit/watch/index.js');
      const global = globalOptions(cmd);
      const verbose = global.verbose ?? false;
      const line = (text: string) => void process.stderr.write(`${text}\n`);
      let deploying = false;
      const interrupts = handleInterrupts('deploy', (message) =>
        line(deploying ? message : `${message.split(':')[0]}: stopping.`),
      );
      const io = cliIoHost({
        yes: global.yes ?? false,
        note: line,
        warn: (message) => line(`Warning: ${message}`),
      });
      try {
        const outcome = await watchApp({
          session: sessionFor(cmd),
          io,
          command: 'watch',
          dir: process.cwd(),
          ...(options.output ? { output: options.output } : {}),
          synthesize: () =>
            unlessInterrupted(
              synthesizeFor(cmd, options),
              interrupts.signal,
              'during synthesis; nothing was changed',
            ),
          patterns,
          all: options.all ?? false,
          exclusively: options.exclusively ?? false,
          deploy: {
            strict: false,
            concurrency: options.concurrency,
            stackConcurrency: options.stackConcurrency,
            forceStatefulRecreation: options.forceStatefulRecreation ?? false,
            rollback: options.rollback,
            parameters: options.parameters,
            previousParameters: options.previousParameters,
            prefixUserSuppliedNames: namePrefixSetting({ env: process.env, cwd: process.cwd() }).value,
            requireApproval: requireApprovalSetting({
              flag: options.requireApproval,
              env: process.env,
              cwd: process.cwd(),
            }),
            routing: {
              ...(options.preferSdkRoute !== undefined && { preferSdkRoute: options.preferSdkRoute }),
              pinCcApi: options.pinCcApi,
            },
            ...(verbose ? { verbose: true } : {}),
          },
          startRun: (stacks) => {
            deploying = true;
            line(`Deploying ${stacks.join(', ')}`);
            const progress = createProgress(process.stderr, process.stderr.isTTY === true && !verbose);
            return {
              io: cliIoHost({ progress, yes: global.yes ?? false }),
              end: (ended) => {
                deploying = false;
                progress.close();
                if ('error' in ended) {
                  for (const text of renderError(ended.error, verbose)) line(text);
                  return;
                }
                process.stdout.write(renderOutputs(ended.results));
                for (const warning of outputFailureWarnings(ended.results)) line(`warning: ${warning}`);
                for (const warning of ended.results.flatMap((result) => result.unaddressed))
                  line(`warning: ${warning}`);
                line(`Done: ${progress.summary()}`);
              },
            };
          },
          failed: (error) => {
            for (const text of renderError(error, verbose)) line(text);
            line('Still watching: the next change is synthesized again.');
          },
          ...(options.logs
            ? { logLine: (name: string, message: string) => line(`[${name}] ${message}`) }
            : {}),
          signal: interrupts.signal,
        });
        // A watch ends only by a signal: exit 130, whatever the deploy in flight came to (shown above).
        line(
          outcome.stoppedDuring === 'deploy'
            ? 'Stopped watching once the deploy in flight ended; its lock is released.'
            : 'Stopped watching.',
        );
        process.exitCode = 130;
      } finally {
        interrupts.dispose();
      }
    });
}

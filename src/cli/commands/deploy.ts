import { Option, type Command } from 'commander';
import { addAppOptions, collect, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { NAME_PREFIX_ENV, namePrefixSetting } from '../../assembly/name-prefix-setting.js';
import { APPROVAL_LEVELS, type ApprovalLevel } from '../../assembly/approval-level.js';
import { REQUIRE_APPROVAL_ENV, requireApprovalSetting } from '../../assembly/require-approval-setting.js';
import {
  addDeployTuning,
  addRecreateOptions,
  assetParallelism,
  positiveInteger,
  addRoutingOptions,
  type DeployTuning,
  type RecreateOptions,
  type RoutingFlagOptions,
} from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { prepareOutputsFile, writeOutputsFile } from '../render/outputs-file.js';
import { addProgressOption, progressWithInterrupts, type ProgressMode } from '../progress/progress-view.js';
import { outputFailureWarnings, renderOutputs, outputsFileContent } from '../render/render-outputs.js';
import { sessionFor } from '../options/session-from-options.js';
import { unlessInterrupted } from '../../interrupted.js';
import { addHabitDeployFlags, habitNotes, type HabitDeployFlags } from '../options/habit-flags.js';

interface DeployCommandOptions
  extends AppOptions, DeployTuning, RoutingFlagOptions, RecreateOptions, HabitDeployFlags {
  all?: boolean;
  exclusively?: boolean;
  dryRun?: boolean;
  outputsFile?: string;
  rollback: boolean;
  fixForward?: boolean;
  wait: boolean;
  forceStatefulRecreation?: boolean;
  replace?: boolean;
  strict?: boolean;
  allowUnaddressed?: boolean;
  prefixUserSuppliedNames?: boolean;
  plan?: string;
  tags: string[];
  requireApproval?: ApprovalLevel;
  force?: boolean;
  notificationArns: string[];
  progress: ProgressMode;
  /** `--asset-parallelism [n]`: a count, true bare, false under `--no-asset-parallelism`. */
  assetParallelism?: number | boolean;
}

export function registerDeploy(program: Command): void {
  const command = program
    .command('deploy')
    .description('deploy stacks straight through AWS APIs')
    .argument('[stacks...]', 'stack names, display paths or wildcards; default: the only stack');
  addProgressOption(
    addHabitDeployFlags(addRecreateOptions(addRoutingOptions(addDeployTuning(addAppOptions(command))))),
  )
    .option('--all', 'deploy every stack of the app')
    .option('-e, --exclusively', 'only the named stacks, not the stacks they depend on')
    .option('--dry-run', 'print the plan and stop; nothing is locked or changed')
    .option(
      '--force',
      "deploy even when nothing changed: write each recorded resource's applied properties back where AWS holds others (a repair)",
    )
    .option('--outputs-file <file>', 'write the stack outputs as JSON (the CDK CLI shape)')
    .option('--tags <KEY=VALUE>', "the stacks' tags, instead of the app's (repeatable)", collect, [])
    .option(
      '--notification-arns <arn>',
      "an SNS topic every stack's events are published to, as CloudFormation does (repeatable)",
      collect,
      [],
    )
    .option(
      '--plan <file>',
      'deploy exactly the plan cdkd diff --out saved, or refuse if anything moved since',
    )
    .option('--no-rollback', 'leave a failed deploy as it stopped, its journal kept for cdkd rollback')
    .option(
      '--fix-forward',
      'deploy over a stack whose last rollback failed (otherwise refused until cdkd rollback completes it)',
    )
    .option(
      '--no-wait',
      'do not wait for a resource still coming up (an EC2 instance still pending): an attribute read from it is refused',
    )
    .option(
      '--allow-unaddressed',
      'exit 0 even when resources only the rollback journal records could not be acted on',
    )
    .option('--force-stateful-recreation', 'allow replacing resources that hold data')
    .option(
      '--replace',
      "when a replacement's name is held by the resource it replaces, delete that one first, then create",
    )
    .option('--strict', 'refuse the assembly when the app reported warnings')
    .option(
      '--asset-parallelism [n]',
      'assets built or uploaded at once (default 4; --no-asset-parallelism: one at a time)',
      positiveInteger,
    )
    .option('--no-asset-parallelism', 'build and upload assets one at a time')
    .addOption(
      new Option(
        '--require-approval <level>',
        `which changes stop to ask before deploying (default: ${REQUIRE_APPROVAL_ENV}, then cdk.json "requireApproval", then broadening)`,
      ).choices(APPROVAL_LEVELS),
    )
    .option(
      '--prefix-user-supplied-names',
      `send explicit IAM and ELBv2 names as {stack}-{name} (default: ${NAME_PREFIX_ENV}, then cdk.json "prefixUserSuppliedNames", then off)`,
    )
    .option(
      '--no-prefix-user-supplied-names',
      'send explicit names unchanged, whatever the env or cdk.json say',
    )
    .action(async (patterns: string[], options: DeployCommandOptions, cmd: Command) => {
      const { renderPlanText } = await import('../../plan/index.js');
      const { deployApp } = await import('../../toolkit/deploy/deploy-app.js');
      for (const note of habitNotes(options)) process.stderr.write(`Note: ${note}\n`);
      // From the start: a signal during synthesis or the credential lookup is an interrupt too.
      const { progress, interrupts } = await progressWithInterrupts(
        options.progress,
        'deploy',
        globalOptions(cmd).verbose ?? false,
      );
      try {
        const synthesisStarted = Date.now();
        const assembly = await unlessInterrupted(
          synthesizeFor(cmd, options),
          interrupts.signal,
          'during synthesis; nothing was changed',
        );
        progress.sink({
          kind: 'phase',
          stack: 'cdkd',
          phase: 'synthesis',
          durationMs: Date.now() - synthesisStarted,
        });
        if (options.outputsFile && !options.dryRun) await prepareOutputsFile(options.outputsFile);
        const namePrefix = namePrefixSetting({
          flag: options.prefixUserSuppliedNames,
          env: process.env,
          cwd: process.cwd(),
        });
        const results = await deployApp({
          session: sessionFor(cmd),
          assembly,
          patterns,
          all: options.all ?? false,
          exclusively: options.exclusively ?? false,
          strict: options.strict ?? false,
          concurrency: options.concurrency,
          stackConcurrency: options.stackConcurrency,
          dryRun: options.dryRun ?? false,
          forceStatefulRecreation: options.forceStatefulRecreation ?? false,
          replace: options.replace ?? false,
          recreateVia: { ccApi: options.recreateViaCcApi, sdkProvider: options.recreateViaSdkProvider },
          rollback: options.rollback,
          fixForward: options.fixForward ?? false,
          wait: options.wait,
          parameters: options.parameters,
          previousParameters: options.previousParameters,
          tags: options.tags,
          ...(options.force ? { force: true } : {}),
          notificationArns: options.notificationArns,
          prefixUserSuppliedNames: namePrefix.value,
          ...assetParallelism(options.assetParallelism),
          ...(globalOptions(cmd).verbose ? { verbose: true } : {}),
          // The human view predicts the deploy's time; the JSON streams do not.
          ...(options.progress === 'human' && { estimate: true }),
          requireApproval: requireApprovalSetting({
            flag: options.requireApproval,
            env: process.env,
            cwd: process.cwd(),
          }),
          io: cliIoHost({ progress, yes: globalOptions(cmd).yes ?? false }),
          command: 'deploy',
          signal: interrupts.signal,
          ...(options.plan !== undefined && { planFile: options.plan }),
          routing: {
            ...(options.preferSdkRoute !== undefined && { preferSdkRoute: options.preferSdkRoute }),
            pinCcApi: options.pinCcApi,
          },
        });
        progress.close();
        if (options.dryRun) {
          for (const result of results)
            progress.text(
              `${result.stackName}\n${renderPlanText(result.plan, { stateful: result.stateful ?? [] })}\n`,
            );
          progress.ended();
          return;
        }
        progress.text(renderOutputs(results));
        const failedOutputs = outputFailureWarnings(results);
        for (const warning of failedOutputs) process.stderr.write(`warning: ${warning}\n`);
        if (options.outputsFile) await writeOutputsFile(options.outputsFile, outputsFileContent(results));
        const unaddressed = results.flatMap((result) => result.unaddressed);
        for (const warning of unaddressed) process.stderr.write(`warning: ${warning}\n`);
        process.stderr.write(`Done: ${progress.summary()}\n`);
        if (globalOptions(cmd).verbose)
          for (const line of progress.timings()) process.stderr.write(`${line}\n`);
        if (unaddressed.length > 0 && !options.allowUnaddressed) process.exitCode = 2;
        if (failedOutputs.length > 0) process.exitCode = 2;
        progress.ended();
      } catch (error) {
        progress.ended(error);
        throw error;
      } finally {
        interrupts.dispose();
        progress.close();
      }
    });
}

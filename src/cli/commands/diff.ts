import { InvalidArgumentError, type Command } from 'commander';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { namePrefixSetting } from '../../assembly/name-prefix-setting.js';
import {
  addDeployTuning,
  addRecreateOptions,
  addRoutingOptions,
  type DeployTuning,
  type RecreateOptions,
  type RoutingFlagOptions,
} from '../options/deploy-options.js';
import { outputFailureWarnings, renderOutputChanges, shownOutputChanges } from '../render/render-outputs.js';
import { sessionFor } from '../options/session-from-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import type { StackDeployResult } from '../../messages/index.js';

interface DiffOptions extends AppOptions, DeployTuning, RoutingFlagOptions, RecreateOptions {
  all?: boolean;
  json?: boolean;
  fail?: boolean;
  forceStatefulRecreation?: boolean;
  replace?: boolean;
  fixForward?: boolean;
  out?: string;
  contextLines: number;
}

export function registerDiff(program: Command): void {
  const command = program
    .command('diff')
    .description('compare the app with what cdkd deployed, resource by resource')
    .argument('[stacks...]', 'stack names, display paths or wildcards; default: the only stack');
  addRecreateOptions(addRoutingOptions(addDeployTuning(addAppOptions(command))))
    .option('--all', 'every stack of the app')
    .option('--json', 'print the plans as JSON')
    .option('--fail', 'exit 1 when anything would change')
    .option('--out <file>', 'save the plans and what they were made from, for cdkd deploy --plan')
    .option(
      '--context-lines <n>',
      'unchanged neighbours shown around a changed value in an object or array',
      contextLines,
      3,
    )
    .option(
      '--force-stateful-recreation',
      'plan as a deploy with this flag would; without it, the refusals a deploy would raise are raised',
    )
    .option('--replace', 'plan as a deploy with this flag would (see cdkd deploy --replace)')
    .option(
      '--fix-forward',
      'plan a stack whose last rollback failed, as cdkd deploy --fix-forward would (otherwise refused)',
    )
    .action(async (patterns: string[], options: DiffOptions, cmd: Command) => {
      const { renderPlanJson, resourceChanges, summarizePlan } = await import('../../plan/index.js');
      const { paintFor, renderReview } = await import('../render/render-review.js');
      const { deployApp } = await import('../../toolkit/deploy/deploy-app.js');
      const assembly = await synthesizeFor(cmd, options);
      const results: StackDeployResult[] = [];
      // The plans of the stacks that planned are shown even when another stack's plan fails.
      const planned = deployApp({
        session: sessionFor(cmd),
        assembly,
        patterns,
        all: options.all ?? false,
        exclusively: true,
        strict: false,
        concurrency: options.concurrency,
        stackConcurrency: options.stackConcurrency,
        dryRun: true,
        forceStatefulRecreation: options.forceStatefulRecreation ?? false,
        replace: options.replace ?? false,
        fixForward: options.fixForward ?? false,
        recreateVia: { ccApi: options.recreateViaCcApi, sdkProvider: options.recreateViaSdkProvider },
        parameters: options.parameters,
        previousParameters: options.previousParameters,
        routing: {
          ...(options.preferSdkRoute !== undefined && { preferSdkRoute: options.preferSdkRoute }),
          pinCcApi: options.pinCcApi,
        },
        io: cliIoHost({
          yes: globalOptions(cmd).yes ?? false,
          warn: (message) => process.stderr.write(`Warning: ${message}\n`),
          note: (line) => process.stderr.write(`${line}\n`),
          result: (message) => {
            if (message.code === 'CDKD_R2003') results.push(message.data);
          },
        }),
        command: 'diff',
        // Resolved as deploy resolves it, so a saved plan binds the names deploy would send.
        prefixUserSuppliedNames: namePrefixSetting({ env: process.env, cwd: process.cwd() }).value,
        ...(options.out !== undefined && { savePlanTo: options.out }),
      });
      const failure = await planned.then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      if (failure && results.length === 0) throw failure.error;
      if (options.json) {
        const plans = Object.fromEntries(
          results.map((r) => [
            r.stackName,
            {
              ...JSON.parse(
                renderPlanJson(r.plan, {
                  changes: resourceChanges(r.plan, r.values ?? {}, {
                    stateful: r.stateful ?? [],
                    contextLines: options.contextLines,
                  }),
                  ...(r.security && { security: r.security }),
                }),
              ),
              outputs: shownOutputChanges(r),
            },
          ]),
        );
        process.stdout.write(`${JSON.stringify(plans, null, 2)}\n`);
      } else {
        for (const result of results)
          process.stdout.write(
            `Stack ${result.stackName}\n${renderReview(result, { contextLines: options.contextLines, paint: paintFor(process.stdout) })}\n${renderOutputChanges(result)}`,
          );
      }
      for (const warning of outputFailureWarnings(results)) process.stderr.write(`Warning: ${warning}\n`);
      if (failure) throw failure.error;
      const changes = results.reduce((sum, result) => {
        const s = summarizePlan(result.plan);
        return sum + s.create + s.update + s.replace + s.delete + (result.outputChanges?.length ?? 0);
      }, 0);
      if (options.fail && changes > 0) process.exitCode = 1;
    });
}

function contextLines(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number, 0 or more.');
  return n;
}

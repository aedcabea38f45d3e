import { Option, type Command } from 'commander';
import { APPROVAL_LEVELS, type ApprovalLevel } from '../../assembly/approval-level.js';
import { REQUIRE_APPROVAL_ENV, requireApprovalSetting } from '../../assembly/require-approval-setting.js';
import type { KeptGeneration } from '../../state/index.js';
import { collect } from '../options/app-options.js';
import { positiveInteger } from '../options/deploy-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { addProgressOption, progressWithInterrupts, type ProgressMode } from '../progress/progress-view.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

interface UndoOptions {
  list?: boolean;
  to?: number;
  dryRun?: boolean;
  parameters: string[];
  concurrency: number;
  forceStatefulRecreation?: boolean;
  requireApproval?: ApprovalLevel;
  progress: ProgressMode;
}

export function registerUndo(program: Command): void {
  addProgressOption(
    program
      .command('undo')
      .addOption(accountOption())
      .description('put a stack back to what its previous successful deploy made (from state; no synthesis)')
      .argument('[stack]', 'the stack to put back (with --list: default every stack in the region)'),
  )
    .option('--list', 'show the generations the state bucket keeps, and stop')
    .option(
      '--to <generation>',
      'return to this generation (see --list) instead of the previous one',
      positiveInteger,
    )
    .option('--dry-run', 'show the plan and stop; nothing is locked or changed')
    .option(
      '--parameters <KEY=VALUE>',
      'the value of a NoEcho parameter the generation keeps masked (repeatable)',
      collect,
      [],
    )
    .option('--concurrency <n>', 'resources worked on at once', positiveInteger, 8)
    .option('--force-stateful-recreation', 'allow replacing resources that hold data, as cdkd deploy does')
    .addOption(
      new Option(
        '--require-approval <level>',
        `which changes stop to ask before deploying (default: ${REQUIRE_APPROVAL_ENV}, then cdk.json "requireApproval", then broadening)`,
      ).choices(APPROVAL_LEVELS),
    )
    .action(async (named: string | undefined, options: UndoOptions, cmd: Command) => {
      const global = globalOptions(cmd);
      const undo = await import('../../toolkit/undo/index.js');
      const where = { session: await stateSessionFor(cmd), ...(global.region && { region: global.region }) };
      if (options.list) {
        const stacks = await undo.listGenerations({
          ...where,
          ...(named !== undefined && { stackName: named }),
        });
        if (stacks.length === 0) process.stdout.write('No stacks with state in this region.\n');
        for (const { stackName, kept } of stacks) process.stdout.write(renderGenerations(stackName, kept));
        return;
      }
      if (named === undefined)
        cmd.error(
          "error: missing argument 'stack': name the stack to undo (cdkd undo <stack>), or pass --list",
        );
      const stackName = named;
      const target = { ...where, stackName };
      const { renderReview, paintFor } = await import('../render/render-review.js');
      const { progress, interrupts } = await progressWithInterrupts(
        options.progress,
        'undo',
        global.verbose ?? false,
      );
      try {
        const prepared = await undo.prepareUndo({
          ...target,
          ...(options.to !== undefined && { to: options.to }),
          parameters: options.parameters,
          concurrency: options.concurrency,
          forceStatefulRecreation: options.forceStatefulRecreation ?? false,
          requireApproval: requireApprovalSetting({
            flag: options.requireApproval,
            env: process.env,
            cwd: process.cwd(),
          }),
          signal: interrupts.signal,
          io: cliIoHost({ progress, yes: global.yes ?? false }),
          command: 'undo',
        });
        const { generation } = prepared;
        progress.text(
          `Undo ${stackName}: back to generation ${generation.number} (deployed ${generation.deployedAt})\n` +
            `${renderReview(prepared.review, { contextLines: 3, paint: paintFor(process.stdout) })}\n`,
        );
        if (options.dryRun) {
          progress.ended();
          return;
        }
        const result = await undo.applyUndo(prepared, interrupts.signal);
        progress.close();
        process.stderr.write(
          `Done: ${stackName} ${result.changed ? `is back at generation ${generation.number}` : 'already matched generation ' + generation.number}. ${progress.summary()}\n`,
        );
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

/** One line per generation kept: number, time, what it changed (or why it cannot be read). */
function renderGenerations(stackName: string, kept: readonly KeptGeneration[]): string {
  if (kept.length === 0)
    return `${stackName}: no generations recorded (each successful deploy records one).\n`;
  const lines = kept.map((generation, index) => {
    const document = generation.document;
    if (!document)
      return `  ?    ${generation.storedAt.toISOString()}  unreadable: ${generation.problem ?? 'unknown'}`;
    const { create, update, replace, delete: deleted } = document.changes;
    const changed = [
      create > 0 && `${create} created`,
      update > 0 && `${update} updated`,
      replace > 0 && `${replace} replaced`,
      deleted > 0 && `${deleted} deleted`,
    ].filter(Boolean);
    const source = document.source === 'undo' ? `undo to ${document.undoneTo}` : 'deploy';
    const current = index === 0 ? '  (current)' : '';
    return `  ${String(document.number).padEnd(4)} ${document.deployedAt}  ${source}: ${changed.join(', ') || 'outputs or settings only'}${current}`;
  });
  return `${stackName}: generations kept, newest first\n  gen  deployed                  what changed\n${lines.join('\n')}\n`;
}

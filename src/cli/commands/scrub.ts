import type { Command } from 'commander';
import type { CleanOutcome, Leftover } from '../../messages/index.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { describeLeftover } from '../render/leftover-text.js';
import { createProgress } from '../progress/progress.js';
import { interruptible } from '../interrupts/interrupts.js';
import { accountOption, stateSessionFor } from '../options/session-from-options.js';

export function registerScrub(program: Command): void {
  program
    .command('scrub')
    .addOption(accountOption())
    .description(
      'find what crashed runs left in the state bucket (stale locks, journals) and offer to clean each',
    )
    .action(async (_options: unknown, cmd: Command) => {
      const { scrubBucket } = await import('../../toolkit/recovery/scrub.js');
      const yes = globalOptions(cmd).yes ?? false;
      const progress = createProgress(process.stderr, false);
      const session = await stateSessionFor(cmd);
      const warn = (message: string) => progress.sink({ kind: 'warning', stack: 'cdkd', message });
      const results = await interruptible('scrub', { session, warn }, (signal) =>
        scrubBucket({
          session,
          io: cliIoHost({ progress, yes, questionOutput: (text) => process.stdout.write(text) }),
          command: 'scrub',
          signal,
        }),
      ).finally(() => progress.close());
      if (results.length === 0) {
        process.stdout.write('Nothing left behind: no stale lock, no stray journal.\n');
        return;
      }
      for (const { leftover, outcome } of results) {
        process.stdout.write(`${describeLeftover(leftover)} ${said(leftover, outcome)}.\n`);
      }
      if (results.some((result) => result.outcome.kind !== 'cleaned')) process.exitCode = 2;
    });
}

function said(leftover: Leftover, outcome: CleanOutcome): string {
  const stack = leftover.ref.stackName.replaceAll('/', '~');
  const rollback = `cdkd rollback ${stack} --region ${leftover.ref.region}`;
  switch (outcome.kind) {
    case 'cleaned':
      return 'cleaned';
    case 'declined':
      return 'left as it is';
    case 'warned':
      return 'settled, but some operations need attention (see the warnings; cdkd events lists them)';
    case 'failed':
      return `not settled: the rollback failed and the journal is kept; fix the cause (see the errors above), then run ${rollback}`;
    case 'unsettled':
      return `settled in part; the journal keeps what cdkd could not settle: ${outcome.entries.join('; ')}. Check each by hand (see the warnings), then run ${rollback}, or drop an entry with ${rollback} --orphan <logicalId>`;
    case 'left':
      return `left: ${leftAlone(leftover)}`;
  }
}

function leftAlone(leftover: Leftover): string {
  const stack = leftover.ref.stackName.replaceAll('/', '~');
  switch (leftover.kind) {
    case 'held-lock':
    case 'unreadable-lock':
      return `if no cdkd process holds it any more, run cdkd force-unlock ${stack} --region ${leftover.ref.region}`;
    case 'unreadable-journal':
      return 'restore it from the bucket version history, then run cdkd rollback';
    default:
      return `clear its lock if no cdkd process holds it (cdkd force-unlock ${stack}), then run cdkd rollback ${stack} --region ${leftover.ref.region}`;
  }
}

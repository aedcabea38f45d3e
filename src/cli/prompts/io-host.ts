import type {
  AnyIoMessage,
  IoHost,
  IoMessage,
  IoQuestion,
  QuestionCode,
  QuestionPayloads,
} from '../../messages/index.js';
import { confirmed, dataLossConfirmer } from './confirm.js';
import { CdkdError } from '../../errors.js';
import type { ApprovalRequest } from '../../messages/index.js';
import { describeLeftover, leftoverRemedy } from '../render/leftover-text.js';
import { promptMfaCode } from './mfa-prompt.js';
import type { Progress } from '../progress/index.js';

export interface CliIoHostOptions {
  /** The live view events go to; a command without one shows no events. */
  progress?: Progress;
  /** `--yes`: every question answered yes without asking. */
  yes: boolean;
  /** Where the app's own output goes (stderr, as the app's output always went). */
  appOutput?(chunk: string): void;
  /** How a warning shows (default: the progress view's warning line). */
  warn?(message: string, stack?: string): void;
  /** How a note shows (default: the progress view's note line, else a line on stderr). */
  note?(line: string): void;
  /** Where a yes/no question's lines go (default: stderr). */
  questionOutput?(text: string): void;
  /** Results (level `result`), for a command that prints them as they come. */
  result?(message: AnyIoMessage): void;
}

/**
 * The terminal's IO host: events, warnings and notes go to the progress view as the commands
 * render them today, questions to the terminal's prompt. Results are the command's to print.
 */
export function cliIoHost(options: CliIoHostOptions): IoHost {
  const { progress } = options;
  const stderr = (text: string) => process.stderr.write(text);
  const confirmDataLoss = dataLossConfirmer({
    yes: options.yes,
    write: (text) => {
      progress?.close();
      stderr(text);
    },
  });
  const warn =
    options.warn ??
    ((message: string, stack?: string) =>
      progress?.sink({ kind: 'warning', stack: stack ?? 'cdkd', message }));
  const note = options.note ?? progress?.note ?? ((line: string) => stderr(`${line}\n`));
  const notify = (message: AnyIoMessage): void => {
    switch (message.code) {
      case 'CDKD_I1000':
        (options.appOutput ?? stderr)(message.data.chunk);
        return;
      case 'CDKD_I2000':
      case 'CDKD_I2001':
      case 'CDKD_D2002':
      case 'CDKD_I3000':
        progress?.sink(message.data);
        return;
      case 'CDKD_W9000':
        warn(message.text, message.data.stack);
        return;
      case 'CDKD_I9001':
        note(message.text);
        return;
      default:
        if (message.level === 'result') options.result?.(message);
        return;
    }
  };
  return {
    notify: (message) => notify(message as IoMessage as AnyIoMessage),
    async ask<Code extends QuestionCode>(
      question: IoQuestion<Code>,
    ): Promise<QuestionPayloads[Code]['answer']> {
      const asked = question as IoQuestion;
      if (asked.code === 'CDKD_Q2100') {
        // A refusal throws CANCELLED, as the deploy's confirmation does today.
        await confirmDataLoss((asked as IoQuestion<'CDKD_Q2100'>).data);
        return true;
      }
      if (asked.code === 'CDKD_Q2101') {
        progress?.close();
        return approve((asked as IoQuestion<'CDKD_Q2101'>).data, asked.text, options.yes);
      }
      if (asked.code === 'CDKD_Q4100') {
        const leftover = (asked as IoQuestion<'CDKD_Q4100'>).data;
        return confirmed(`${describeLeftover(leftover)} ${leftoverRemedy(leftover)}?`, options.yes);
      }
      if (asked.code === 'CDKD_Q5100') return confirmed(asked.text, options.yes);
      if (asked.code === 'CDKD_Q9200') {
        progress?.close();
        return promptMfaCode(asked.text, (asked as IoQuestion<'CDKD_Q9200'>).data) as never;
      }
      if (asked.code === 'CDKD_Q9100') {
        const { stackName, region, holder } = (asked as IoQuestion<'CDKD_Q9100'>).data;
        process.stdout.write(`Stack ${stackName} (${region}) is locked: ${holder}.\n`);
        return confirmed(asked.text, options.yes);
      }
      if (asked.code === 'CDKD_Q4000') {
        progress?.close();
        return confirmed(asked.text, options.yes);
      }
      // The live view shares stderr: it is cleared before lines go there, left as it is otherwise.
      if (!options.questionOutput) progress?.close();
      const write = options.questionOutput ?? stderr;
      const { heading, lines } = (asked as IoQuestion<'CDKD_Q9000'>).data;
      if (heading !== undefined) write(`${heading}\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
      else for (const line of lines) write(`${line}\n`);
      return confirmed(asked.text, options.yes);
    },
  };
}

let approvals: Promise<unknown> = Promise.resolve();

/**
 * `--require-approval`: shows what needs approval, then asks on a TTY, one stack at a time; `--yes`
 * approves as the CDK CLI's does; with neither, it refuses before the stack is touched.
 */
function approve(request: ApprovalRequest, question: string, yes: boolean): Promise<boolean> {
  const asked = approvals.then(async () => {
    // Loaded when asked: the plan's renderers stay out of every command's start-up.
    const { paintFor, renderApprovalRequest } = await import('../render/render-review.js');
    process.stderr.write(renderApprovalRequest(request, paintFor(process.stderr)));
    if (yes) {
      process.stderr.write(`${question} (approved by --yes)\n`);
      return true;
    }
    if (!process.stdin.isTTY) {
      const why = request.broadened ? 'widens permissions' : 'changes resources';
      throw new CdkdError(
        'APPROVAL_REQUIRED',
        `${request.stackName} ${why}, which --require-approval ${request.level} stops for, and there is no terminal to approve it on; nothing was changed.`,
        {
          hint: 'Review it with cdkd diff, then approve on a terminal, or re-run with --yes, or with --require-approval never.',
        },
      );
    }
    return confirmed(question, false);
  });
  approvals = asked.catch(() => undefined);
  return asked;
}

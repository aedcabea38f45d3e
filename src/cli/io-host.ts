import type {
  AnyIoMessage,
  IoHost,
  IoMessage,
  IoQuestion,
  QuestionCode,
  QuestionPayloads,
} from '../messages/index.js';
import { confirmed, dataLossConfirmer } from './confirm.js';
import type { Progress } from './progress.js';

export interface CliIoHostOptions {
  progress: Progress;
  /** `--yes`: every question answered yes without asking. */
  yes: boolean;
  /** Where the app's own output goes (stderr, as the app's output always went). */
  appOutput?(chunk: string): void;
}

/**
 * The terminal's IO host: events, warnings and notes go to the progress view as the commands
 * render them today, questions to the terminal's prompt. Results are the command's to print.
 */
export function cliIoHost(options: CliIoHostOptions): IoHost {
  const { progress } = options;
  const confirmDataLoss = dataLossConfirmer({
    yes: options.yes,
    write: (text) => {
      progress.close();
      process.stderr.write(text);
    },
  });
  const notify = (message: AnyIoMessage): void => {
    switch (message.code) {
      case 'CDKD_I1000':
        (options.appOutput ?? ((chunk: string) => process.stderr.write(chunk)))(message.data.chunk);
        return;
      case 'CDKD_I2000':
      case 'CDKD_I2001':
      case 'CDKD_D2002':
      case 'CDKD_I3000':
        progress.sink(message.data);
        return;
      case 'CDKD_W9000':
        progress.sink({ kind: 'warning', stack: message.data.stack ?? 'cdkd', message: message.text });
        return;
      case 'CDKD_I9001':
        progress.note(message.text);
        return;
      default:
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
      progress.close();
      for (const line of (asked as IoQuestion<'CDKD_Q9000'>).data.lines) process.stderr.write(`${line}\n`);
      return confirmed(asked.text, options.yes);
    },
  };
}

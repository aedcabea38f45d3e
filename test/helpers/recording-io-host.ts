import type {
  DeployEvent,
  IoHost,
  IoMessage,
  IoQuestion,
  MessageCode,
  MessagePayloads,
  QuestionCode,
  QuestionPayloads,
} from '../../src/messages/index.js';

type Answers = { [Code in QuestionCode]?: QuestionPayloads[Code]['answer'] };

/** An IO host for tests: keeps every message and question; answers from `answers`, else the default. */
export class RecordingIoHost implements IoHost {
  readonly messages: IoMessage[] = [];
  readonly questions: IoQuestion[] = [];

  constructor(private readonly answers: Answers = {}) {}

  notify<Code extends MessageCode>(message: IoMessage<Code>): void {
    this.messages.push(message as IoMessage);
  }

  async ask<Code extends QuestionCode>(
    question: IoQuestion<Code>,
  ): Promise<QuestionPayloads[Code]['answer']> {
    this.questions.push(question as IoQuestion);
    const answer = this.answers[question.code];
    return answer === undefined ? question.defaultAnswer : (answer as QuestionPayloads[Code]['answer']);
  }

  /** The messages of one code, in the order they came. */
  withCode<Code extends MessageCode>(code: Code): IoMessage<Code>[] {
    return this.messages.filter((message): message is IoMessage<Code> => message.code === code);
  }
}

const EVENT_CODES: ReadonlySet<MessageCode> = new Set([
  'CDKD_I2000',
  'CDKD_I2001',
  'CDKD_D2002',
  'CDKD_I3000',
]);

/**
 * An IO host that hands the engine's events to `sink` as the events they carry (a warning as a
 * `warning` event); questions go to `ask`, else take their default.
 */
export function eventsTo(sink: (event: DeployEvent) => void, ask?: IoHost['ask']): IoHost {
  return {
    notify(message) {
      if (EVENT_CODES.has(message.code)) sink(message.data as DeployEvent);
      else if (message.code === 'CDKD_W9000') {
        const { stack } = message.data as MessagePayloads['CDKD_W9000'];
        sink({ kind: 'warning', stack: stack ?? 'cdkd', message: message.text });
      }
    },
    ask: ask ?? (async (question) => question.defaultAnswer),
  };
}

/** Answers a plan's yes/no question (CDKD_Q9000) with `confirm(lines)`, any other with its default. */
export function plansAnswered(confirm: (lines: string[]) => Promise<boolean>): IoHost['ask'] {
  return async (question) =>
    question.code === 'CDKD_Q9000'
      ? confirm((question as IoQuestion<'CDKD_Q9000'>).data.lines)
      : question.defaultAnswer;
}

/** Yes to every plan, as a `cdkd rollback --yes` answers. */
export const yesToPlans = plansAnswered(async () => true);

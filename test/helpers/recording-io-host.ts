import type {
  IoHost,
  IoMessage,
  IoQuestion,
  MessageCode,
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

import type { MessageCode, MessagePayloads, QuestionCode, QuestionPayloads } from './codes.js';
import type { DeployEvent } from './payloads/deploy.js';

export type MessageLevel = 'error' | 'warn' | 'info' | 'debug' | 'result';

/** The command a message came from, as the user typed it (`deploy`, `state destroy` ...). */
export type CommandName = string;

const LEVELS = { E: 'error', W: 'warn', I: 'info', D: 'debug', R: 'result' } as const;

type LevelLetter = keyof typeof LEVELS;
type LevelOf<Code extends MessageCode> = Code extends `CDKD_${infer Letter extends LevelLetter}${string}`
  ? (typeof LEVELS)[Letter]
  : never;

/** One thing a command tells its user: what it is (code, payload), where from, and a line of text. */
export interface IoMessage<Code extends MessageCode = MessageCode> {
  code: Code;
  level: LevelOf<Code>;
  command: CommandName;
  time: Date;
  /** The message as one line of text, for a host that renders nothing of its own. */
  text: string;
  data: MessagePayloads[Code];
}

/** Any one message, narrowed by its code (`switch (message.code)`). */
export type AnyIoMessage = { [Code in MessageCode]: IoMessage<Code> }[MessageCode];

/** Something a command asks its user, and what it assumes when nobody can answer. */
export interface IoQuestion<Code extends QuestionCode = QuestionCode> {
  code: Code;
  command: CommandName;
  time: Date;
  /** The question, as one line. */
  text: string;
  data: QuestionPayloads[Code]['data'];
  /** The answer taken when the host cannot ask (`--yes`, no terminal). */
  defaultAnswer: QuestionPayloads[Code]['answer'];
}

/**
 * The one road output takes: every event, warning, note and result goes to `notify`, every
 * question to `ask`. The CLI's host renders them on the terminal; a test's host records them.
 */
export interface IoHost {
  notify<Code extends MessageCode>(message: IoMessage<Code>): void | Promise<void>;
  ask<Code extends QuestionCode>(question: IoQuestion<Code>): Promise<QuestionPayloads[Code]['answer']>;
}

/** The level a code's letter names. */
export function levelOf<Code extends MessageCode>(code: Code): LevelOf<Code> {
  return LEVELS[code.charAt(5) as LevelLetter] as LevelOf<Code>;
}

/** A message of `code` from `command`, stamped now. */
export function ioMessage<Code extends MessageCode>(
  command: CommandName,
  code: Code,
  text: string,
  data: MessagePayloads[Code],
): IoMessage<Code> {
  return { code, level: levelOf(code), command, time: new Date(), text, data };
}

/** A question of `code` from `command`, stamped now. */
export function ioQuestion<Code extends QuestionCode>(
  command: CommandName,
  code: Code,
  text: string,
  data: QuestionPayloads[Code]['data'],
  defaultAnswer: QuestionPayloads[Code]['answer'],
): IoQuestion<Code> {
  return { code, command, time: new Date(), text, data, defaultAnswer };
}

/** Asks yes/no about a plan (CDKD_Q9000): shown as its heading with the lines listed under it; nobody to ask is a no. */
export async function confirmPlan(
  io: IoHost,
  command: CommandName,
  plan: { heading: string; lines: string[]; question: string },
): Promise<boolean> {
  return io.ask(
    ioQuestion(command, 'CDKD_Q9000', plan.question, { heading: plan.heading, lines: plan.lines }, false),
  );
}

/** A message from the engine's event: the code each kind of event has (see MessagePayloads). */
export function eventMessage(command: CommandName, event: DeployEvent): AnyIoMessage {
  switch (event.kind) {
    case 'resource':
      return ioMessage(
        command,
        'CDKD_I2000',
        `${event.stack} ${event.logicalId} ${event.action} ${event.status}`,
        event,
      );
    case 'stack':
      return ioMessage(command, 'CDKD_I2001', `${event.stack} ${event.status}`, event);
    case 'phase':
      return ioMessage(command, 'CDKD_D2002', `${event.stack} ${event.phase} ${event.durationMs} ms`, event);
    case 'rollback':
      return ioMessage(
        command,
        'CDKD_I3000',
        `${event.stack} ${event.logicalId} rollback ${event.status}`,
        event,
      );
    case 'warning':
      return ioMessage(command, 'CDKD_W9000', event.message, { stack: event.stack });
  }
}

import { ioMessage, type CommandName, type IoHost, type MessageCode } from '../messages/index.js';

/** Where a toolkit service sends what it tells its user, and the command it works for. */
export interface ToolkitIo {
  io: IoHost;
  command: CommandName;
}

/** Something needs a person's attention (CDKD_W9000). */
export function warn({ io, command }: ToolkitIo, message: string, stack?: string): void {
  void io.notify(ioMessage(command, 'CDKD_W9000', message, stack === undefined ? {} : { stack }));
}

/** A line of information between the events (CDKD_I9001). */
export function note({ io, command }: ToolkitIo, message: string): void {
  void io.notify(ioMessage(command, 'CDKD_I9001', message, {}));
}

const PROGRESS: ReadonlySet<MessageCode> = new Set(['CDKD_I2000', 'CDKD_I2001', 'CDKD_D2002', 'CDKD_I3000']);

/** `io` without the per-resource progress events, for commands that show none (drift, import ...). */
export function withoutProgress(io: IoHost): IoHost {
  return {
    notify: (message) => (PROGRESS.has(message.code) ? undefined : io.notify(message)),
    ask: (question) => io.ask(question),
  };
}

/** A host that shows nothing and takes each question's default (a dry run behind `cdkd ui`). */
export const silentIo: IoHost = {
  notify: () => undefined,
  ask: async (question) => question.defaultAnswer,
};

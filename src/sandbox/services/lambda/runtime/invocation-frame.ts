import type { RunOutcome } from './container.js';
import { logTail, type LogLine, type StreamLog } from './function-logs.js';
import type { InvokeResult } from './invocation.js';

export interface Frame {
  requestId: string;
  version: string;
  memorySize: number;
}

/**
 * One invocation between Lambda's `START` and `END` / `REPORT` lines (and its timeout line):
 * `run` gets the writer of the invocation's lines, which go to the stream and to the tail
 * Invoke returns.
 */
export async function framedInvocation(
  log: StreamLog,
  frame: Frame,
  run: (line: (message: string) => void) => Promise<RunOutcome>,
): Promise<InvokeResult> {
  const { requestId } = frame;
  const lines: LogLine[] = [];
  const line = (message: string): void => void lines.push(log.write(message));
  const begin = Date.now();
  line(`START RequestId: ${requestId} Version: ${frame.version}`);
  const outcome = await run(line);
  if (outcome.kind === 'error' && outcome.error.errorType === 'Sandbox.Timedout') {
    line(`${new Date().toISOString()} ${outcome.error.errorMessage}`);
  }
  const duration = Date.now() - begin;
  line(`END RequestId: ${requestId}`);
  line(
    `REPORT RequestId: ${requestId}\tDuration: ${duration.toFixed(2)} ms\tBilled Duration: ${Math.max(1, duration)} ms\tMemory Size: ${frame.memorySize} MB\tMax Memory Used: ${frame.memorySize} MB`,
  );
  await log.flushed();
  return outcome.kind === 'result'
    ? { payload: outcome.payload, logResult: logTail(lines) }
    : { payload: JSON.stringify(outcome.error), functionError: 'Unhandled', logResult: logTail(lines) };
}

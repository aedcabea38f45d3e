import { randomUUID } from 'node:crypto';
import { isCdkdError, messageOf } from '../../errors.js';
import type { DeployEvent, ProgressEvent, ProgressRun } from '../../messages/index.js';
import { keptWhenErrorsOnly, noteEvent, progressEventOf, runEvent } from '../../messages/progress-events.js';
import type { ProgressView } from './progress-mode.js';

/**
 * `--progress events|errors`: one JSON object per event on `write` (stdout), instead of the
 * human view; `errors` keeps failures, warnings and the run's end (docs/progress-events.md).
 */
export function eventStream(
  mode: 'events' | 'errors',
  command: string,
  write: (line: string) => void,
  now: () => number = Date.now,
): ProgressView {
  const run: ProgressRun = { run: randomUUID(), command, started: now() };
  const counts = new Map<string, number>();
  const emit = (event: ProgressEvent) => {
    if (mode === 'events' || keptWhenErrorsOnly(event)) write(`${JSON.stringify(event)}\n`);
  };
  let ended = false;
  emit(runEvent(run, run.started, { status: 'started' }));
  return {
    sink(event: DeployEvent) {
      if (event.kind === 'resource' && event.status !== 'started') {
        const key = event.status === 'succeeded' ? event.action : event.status;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      emit(progressEventOf(event, run, now()));
    },
    note(line: string) {
      emit(noteEvent(run, now(), line));
    },
    summary: () => [...counts].map(([key, count]) => `${count} ${key}`).join(', ') || 'nothing to do',
    timings: () => [],
    close: () => undefined,
    ended(error?: unknown) {
      if (ended) return;
      ended = true;
      emit(
        error === undefined
          ? runEvent(run, now(), { status: 'succeeded' })
          : runEvent(run, now(), {
              status: 'failed',
              error: {
                message: messageOf(error),
                ...(isCdkdError(error) && { code: error.code }),
                ...(isCdkdError(error) && error.hint !== undefined && { hint: error.hint }),
              },
            }),
      );
    },
    text: (chunk: string) => void process.stderr.write(chunk),
  };
}

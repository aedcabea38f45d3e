import type { DeployEvent, ResourceAction } from '../engine/events.js';

const PAST: Record<ResourceAction, string> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  delete: 'deleted',
  'no-op': 'unchanged',
  retain: 'retained',
};

export interface Progress {
  sink(event: DeployEvent): void;
  /** A line of its own, between the events. */
  note(line: string): void;
  /** The closing line: counts by outcome and the duration. */
  summary(): string;
  /** Clears the live line before other output. */
  close(): void;
}

/**
 * One line per event; on a TTY a live last line also lists what is in flight.
 * Rendering only: the engine decides, this prints.
 */
export function createProgress(stream: NodeJS.WriteStream, live = stream.isTTY === true): Progress {
  const started = Date.now();
  const inFlight = new Map<string, string>();
  const counts = new Map<string, number>();
  let liveLineShown = false;

  const clearLive = () => {
    if (liveLineShown) stream.write('\r\x1b[K');
    liveLineShown = false;
  };
  const drawLive = () => {
    if (!live || inFlight.size === 0) return;
    const names = [...inFlight.values()];
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, +${names.length - 5} more` : '');
    stream.write(`… in progress (${inFlight.size}): ${shown}`);
    liveLineShown = true;
  };
  const print = (line: string) => {
    clearLive();
    stream.write(`${line}\n`);
    drawLive();
  };

  return {
    sink(event) {
      if (event.kind === 'warning') return print(`${event.stack} | warning: ${event.message}`);
      if (event.kind === 'rollback') {
        const mark = event.status === 'failed' ? '✗' : event.warn ? '⚠' : '↺';
        return print(`${event.stack} | ${mark} ${event.message}`);
      }
      if (event.kind === 'stack') {
        const status = event.status === 'no-changes' ? 'no changes' : event.status;
        return print(`${event.stack} | stack ${status}${event.message ? `: ${event.message}` : ''}`);
      }
      const key = `${event.stack}/${event.logicalId}`;
      const label = `${event.stack} | ${event.logicalId} (${event.type})`;
      if (event.status === 'started') {
        inFlight.set(key, event.logicalId);
        return print(`${label} ${event.action} started`);
      }
      inFlight.delete(key);
      const outcome = event.status === 'succeeded' ? PAST[event.action] : `${event.action} ${event.status}`;
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const duration = event.durationMs === undefined ? '' : ` ${(event.durationMs / 1000).toFixed(1)}s`;
      print(`${label} ${outcome}${duration}${event.message ? `: ${event.message}` : ''}`);
    },
    note: print,
    summary() {
      const parts = [...counts].map(([outcome, count]) => `${count} ${outcome}`);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      return `${parts.length > 0 ? parts.join(', ') : 'no resource changes'} in ${seconds}s`;
    },
    close: clearLive,
  };
}

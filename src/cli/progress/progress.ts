import type { DeployEvent, DeployPhase, DeploySchedule, ResourceAction } from '../../messages/index.js';
import type { StackEta } from './progress-eta.js';

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
  /** Per stack, the time each deploy phase took, in the order they ran (for `--verbose`). */
  timings(): string[];
  /** Clears the live view before other output. */
  close(): void;
}

/** What the live view shows for a stack still running. */
interface StackProgress {
  started: number;
  total?: number;
  done: number;
  /** Logical id → when its operation started. */
  inFlight: Map<string, number>;
  /** Logical ids whose operation ended (for an ETA whose code loads after some did). */
  finished: Set<string>;
  /** Once its code has loaded, for a stack whose start event carried a schedule. */
  eta?: StackEta;
}

const REDRAW_MS = 1000;

/**
 * On a TTY (`live`), one status line per running stack (done / in flight / total, elapsed,
 * the slowest resource in flight), redrawn in place, with failures, warnings and finished
 * stacks printed above it. Otherwise one plain line per event. Rendering only: the engine
 * decides, this prints.
 */
export function createProgress(
  stream: NodeJS.WriteStream,
  live = stream.isTTY === true,
  verbose = false,
): Progress {
  const started = Date.now();
  const counts = new Map<string, number>();
  const stacks = new Map<string, StackProgress>();
  const phases = new Map<string, Array<[DeployPhase, number]>>();
  let drawnLines = 0;
  let timer: NodeJS.Timeout | undefined;

  const clearLive = () => {
    if (drawnLines > 0) stream.write(`\x1b[${drawnLines}F\x1b[J`);
    drawnLines = 0;
  };
  const drawLive = () => {
    if (!live) return;
    // Cut to the terminal's width: a wrapped line would throw off the redraw's line count.
    const width = stream.columns > 1 ? stream.columns - 1 : Infinity;
    const lines = [...stacks].map(([name, stack]) => statusLine(name, stack, Date.now()).slice(0, width));
    for (const line of lines) stream.write(`${line}\n`);
    drawnLines = lines.length;
  };
  const redraw = () => {
    clearLive();
    drawLive();
  };
  const print = (line: string) => {
    clearLive();
    stream.write(`${line}\n`);
    drawLive();
  };
  const stackOf = (name: string): StackProgress => {
    let stack = stacks.get(name);
    if (!stack) {
      stack = { started: Date.now(), done: 0, inFlight: new Map(), finished: new Set() };
      stacks.set(name, stack);
    }
    return stack;
  };
  /** The ETA's code is loaded only when a stack has work: never on a no-op. */
  const startEta = (name: string, stack: StackProgress, schedule: DeploySchedule) =>
    void import('./progress-eta.js').then(({ StackEta }) => {
      if (stacks.get(name) !== stack) return;
      stack.eta = new StackEta(schedule);
      for (const id of schedule.operations.map((op) => op.logicalId))
        if (stack.finished.has(id)) stack.eta.finished(id);
      if (verbose) print(`${name} | ${stack.eta.criticalPathLine()}`);
      else if (live) redraw();
    });
  if (live) {
    timer = setInterval(redraw, REDRAW_MS);
    timer.unref();
  }

  return {
    sink(event) {
      if (event.kind === 'phase') {
        phases.set(event.stack, [...(phases.get(event.stack) ?? []), [event.phase, event.durationMs]]);
        return;
      }
      if (event.kind === 'warning') return print(`${event.stack} | warning: ${event.message}`);
      if (event.kind === 'rollback') {
        const mark = event.status === 'failed' ? '✗' : event.warn ? '⚠' : '↺';
        return print(`${event.stack} | ${mark} ${event.message}`);
      }
      if (event.kind === 'stack') {
        const status = event.status === 'no-changes' ? 'no changes' : event.status;
        const line = `${event.stack} | stack ${status}${event.message ? `: ${event.message}` : ''}`;
        if (event.status === 'started') {
          const stack = stackOf(event.stack);
          if (event.total !== undefined) stack.total = event.total;
          if (event.schedule) startEta(event.stack, stack, event.schedule);
          return live ? redraw() : print(line);
        }
        const ended = stacks.get(event.stack);
        stacks.delete(event.stack);
        print(line);
        // How close the prediction came, for a deploy that ran to its end.
        const verdict = event.status === 'succeeded' && ended?.eta?.verdict(Date.now() - ended.started);
        if (verdict) print(`${event.stack} | ${verdict}`);
        return;
      }
      const stack = stackOf(event.stack);
      const label = `${event.stack} | ${event.logicalId} (${event.type})`;
      if (event.status === 'started') {
        stack.inFlight.set(event.logicalId, Date.now());
        return live ? redraw() : print(`${label} ${event.action} started`);
      }
      stack.inFlight.delete(event.logicalId);
      stack.finished.add(event.logicalId);
      stack.eta?.finished(event.logicalId);
      stack.done += 1;
      const outcome = event.status === 'succeeded' ? PAST[event.action] : `${event.action} ${event.status}`;
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const duration = event.durationMs === undefined ? '' : ` ${seconds(event.durationMs)}s`;
      const line = `${label} ${outcome}${duration}${event.message ? `: ${event.message}` : ''}`;
      // Live, only what needs reading stays on screen; the counts carry the rest.
      if (live && event.status !== 'failed') return redraw();
      print(line);
    },
    note: print,
    summary() {
      const parts = [...counts].map(([outcome, count]) => `${count} ${outcome}`);
      return `${parts.length > 0 ? parts.join(', ') : 'no resource changes'} in ${seconds(Date.now() - started)}s`;
    },
    timings() {
      return [...phases].map(
        ([stack, list]) =>
          `${stack} timing: ${list.map(([phase, ms]) => `${phase} ${seconds(ms)}s`).join(', ')}`,
      );
    },
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      clearLive();
    },
  };
}

/** `Stack  12/40 done, 5 in flight  3.2s  ETA ~41s  slowest: Queue7 2.1s` */
function statusLine(name: string, stack: StackProgress, now: number): string {
  const total = stack.total === undefined ? '' : `/${stack.total}`;
  let slowest: [string, number] | undefined;
  for (const [id, since] of stack.inFlight) if (!slowest || since < slowest[1]) slowest = [id, since];
  const slow = slowest ? `  slowest: ${slowest[0]} ${seconds(now - slowest[1])}s` : '';
  const left = stack.eta?.remainingText(stack.inFlight, now);
  const eta = left ? `  ETA ${left}` : '';
  return `${name}  ${stack.done}${total} done, ${stack.inFlight.size} in flight  ${seconds(now - stack.started)}s${eta}${slow}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

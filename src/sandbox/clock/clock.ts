/**
 * The sandbox's time: what every service reads as "now" (message visibility, schedules,
 * Step Functions waits, timestamps it reports). It follows the machine's time (`wall`), runs
 * from a moved starting point (`running`), or stands still (`frozen`); the admin API moves it
 * (`PUT /_sandbox/clock`), so a test fires a nightly job in milliseconds.
 *
 * Timers are set on sandbox time: moving the clock forward fires every timer due by then,
 * each with the clock set to its own due time, in order; in the running modes a real timer
 * fires the earliest one when its time comes.
 */

export type ClockMode = 'wall' | 'running' | 'frozen';

export interface ClockTimer {
  cancel(): void;
}

interface Pending {
  id: number;
  due: number;
  fire: () => void | Promise<void>;
}

/** setTimeout's largest delay; a later timer is re-armed when this one ends. */
const MAX_REAL_DELAY = 2 ** 31 - 1;

export class SandboxClock {
  private mode_: ClockMode = 'wall';
  /** Sandbox time minus machine time, in the running modes. */
  private offset = 0;
  /** The time it stands at when frozen, or while timers fire. */
  private frozenAt = 0;
  /** Standing at `frozenAt` while `moveTo` fires timers, whatever the mode. */
  private holding = false;
  private readonly pending: Pending[] = [];
  private nextId = 0;
  private realTimer: NodeJS.Timeout | undefined;
  /** Set while `moveTo` fires timers, so a fire that moves the clock again waits its turn. */
  private moving: Promise<number> | undefined;
  private closed = false;

  constructor(private readonly machineTime: () => number = Date.now) {}

  now(): number {
    return this.mode_ === 'frozen' || this.holding ? this.frozenAt : this.machineTime() + this.offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** ISO 8601 with milliseconds, as AWS writes most timestamps. */
  iso(): string {
    return this.date().toISOString();
  }

  mode(): ClockMode {
    return this.mode_;
  }

  /** Calls `fire` once the sandbox's time reaches `due` (at once if it has). */
  at(due: number, fire: () => void | Promise<void>): ClockTimer {
    const entry: Pending = { id: (this.nextId += 1), due, fire };
    this.pending.push(entry);
    this.pending.sort((a, b) => a.due - b.due || a.id - b.id);
    this.arm();
    return {
      cancel: () => {
        const index = this.pending.indexOf(entry);
        if (index >= 0) this.pending.splice(index, 1);
        this.arm();
      },
    };
  }

  /** Resolves after `ms` of sandbox time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.at(this.now() + ms, resolve));
  }

  /** Moves the clock forward by `ms`, firing what falls due, each at its own time; returns how many fired. */
  advance(ms: number): Promise<number> {
    return this.moveTo(this.now() + ms, this.mode_);
  }

  /**
   * Jumps to a time (frozen unless another mode is given): what fell due before it fires once,
   * late, at the new time, as after an outage (a nightly schedule runs once, not once a night).
   */
  set(time: number, mode: ClockMode = 'frozen'): Promise<number> {
    return this.moveTo(time, mode === 'wall' ? 'running' : mode, true);
  }

  /** Changes how the clock runs from its current time; `wall` goes back to the machine's time. */
  async setMode(mode: ClockMode): Promise<number> {
    if (mode === 'wall') return this.moveTo(this.machineTime(), 'wall');
    return this.moveTo(this.now(), mode);
  }

  /** Stops the real timer; pending timers never fire. */
  close(): void {
    this.closed = true;
    clearTimeout(this.realTimer);
    this.pending.length = 0;
  }

  private async moveTo(target: number, mode: ClockMode, jump = false): Promise<number> {
    while (this.moving) await this.moving;
    const run = this.fireUntil(target, mode, jump);
    this.moving = run;
    try {
      return await run;
    } finally {
      this.moving = undefined;
      this.arm();
    }
  }

  private async fireUntil(target: number, mode: ClockMode, jump: boolean): Promise<number> {
    let fired = 0;
    this.frozenAt = jump ? target : this.now();
    this.holding = true;
    try {
      for (;;) {
        const next = this.pending[0];
        if (!next || next.due > target || this.closed) break;
        this.pending.shift();
        if (!jump) this.frozenAt = Math.max(this.frozenAt, next.due);
        try {
          await next.fire();
        } catch (error) {
          // A timer's work (a schedule's delivery) failing is that work's failure, not the clock's.
          process.stderr.write(`cdkd sandbox: a timer failed: ${(error as Error)?.stack ?? String(error)}\n`);
        }
        fired += 1;
      }
    } finally {
      this.holding = false;
    }
    this.mode_ = mode;
    this.frozenAt = target;
    this.offset = mode === 'wall' ? 0 : target - this.machineTime();
    return fired;
  }

  /** In the running modes, a real timer for the earliest pending one. */
  private arm(): void {
    clearTimeout(this.realTimer);
    this.realTimer = undefined;
    const next = this.pending[0];
    if (!next || this.closed || this.mode_ === 'frozen' || this.moving) return;
    const delay = Math.min(Math.max(next.due - this.now(), 0), MAX_REAL_DELAY);
    this.realTimer = setTimeout(() => {
      this.realTimer = undefined;
      void this.moveTo(this.now(), this.mode_);
    }, delay);
    this.realTimer.unref();
  }
}

import * as z from 'zod';
import type { SandboxClock } from '../clock/clock.js';
import { parseDuration } from '../clock/duration.js';

/**
 * `PUT /_sandbox/clock`: one of `advance` (a duration: milliseconds, `PT25H`, `90s`, `1d2h`),
 * `set` (an ISO 8601 time or epoch milliseconds; the clock then stands there unless `mode`
 * says otherwise), or `mode` alone (`wall`: the machine's time; `running`: ticking from the
 * current sandbox time; `frozen`: standing still).
 */
export const clockChangeSchema = z
  .object({
    advance: z.union([z.string(), z.number()]).optional(),
    set: z.union([z.string(), z.number()]).optional(),
    mode: z.enum(['wall', 'running', 'frozen']).optional(),
  })
  .strict()
  .refine((change) => [change.advance, change.set].filter((v) => v !== undefined).length <= 1, {
    message: 'give advance or set, not both',
  })
  .refine((change) => change.advance !== undefined || change.set !== undefined || change.mode, {
    message: 'give advance (a duration), set (a time) or mode (wall, running, frozen)',
  });

export type ClockChange = z.infer<typeof clockChangeSchema>;

export interface ClockView {
  now: string;
  epochMillis: number;
  mode: string;
  /** Timers the change fired (schedules, waits, delayed messages). */
  fired?: number;
}

export function clockView(clock: SandboxClock, fired?: number): ClockView {
  return {
    now: clock.iso(),
    epochMillis: clock.now(),
    mode: clock.mode(),
    ...(fired !== undefined ? { fired } : {}),
  };
}

/** Applies a change; a string message when its value cannot be read. */
export async function changeClock(clock: SandboxClock, change: ClockChange): Promise<ClockView | string> {
  if (change.advance !== undefined) {
    const ms = parseDuration(change.advance);
    if (ms === undefined) {
      return `advance: '${String(change.advance)}' is not a duration (milliseconds, PT25H, 90s or 1d2h)`;
    }
    const fired = await clock.advance(ms);
    if (change.mode) await clock.setMode(change.mode);
    return clockView(clock, fired);
  }
  if (change.set !== undefined) {
    const time = typeof change.set === 'number' ? change.set : Date.parse(change.set);
    if (!Number.isFinite(time)) {
      return `set: '${String(change.set)}' is not a time (ISO 8601, e.g. 2030-01-01T02:00:00Z, or epoch milliseconds)`;
    }
    return clockView(clock, await clock.set(time, change.mode ?? 'frozen'));
  }
  return clockView(clock, await clock.setMode(change.mode!));
}

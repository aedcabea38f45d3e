import * as z from 'zod';
import type { DeployEvent } from './payloads/deploy.js';

/** The stream's format version: a change that can break a reader bumps it (docs/progress-events.md). */
export const PROGRESS_EVENTS_VERSION = 1;

const error = z.object({
  /** cdkd's error code (`EXPORT_IN_USE` ...) or the AWS error code, when known. */
  code: z.string().optional(),
  message: z.string(),
  /** What to do next, when cdkd knows. */
  hint: z.string().optional(),
});

const common = {
  v: z.literal(PROGRESS_EVENTS_VERSION),
  /** One id per cdkd invocation: every event of the run carries it. */
  run: z.string().min(1),
  command: z.string(),
  /** When the event happened (ISO 8601), and how long after the run started. */
  time: z.iso.datetime(),
  elapsedMs: z.number().int().nonnegative(),
};

const action = z.enum(['create', 'update', 'replace', 'delete', 'no-op', 'retain']);

/** One line of `--progress events`: a JSON object per event. */
export const progressEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...common,
    type: z.literal('run'),
    status: z.enum(['started', 'succeeded', 'failed']),
    durationMs: z.number().int().nonnegative().optional(),
    error: error.optional(),
  }),
  z.object({
    ...common,
    type: z.literal('stack'),
    stack: z.string(),
    status: z.enum(['started', 'succeeded', 'failed', 'no-changes']),
    /** On `started`: how many resources the run acts on. */
    total: z.number().int().nonnegative().optional(),
    error: error.optional(),
  }),
  z.object({
    ...common,
    type: z.literal('resource'),
    stack: z.string(),
    resource: z.object({ logicalId: z.string(), type: z.string(), physicalId: z.string().optional() }),
    action,
    status: z.enum(['started', 'succeeded', 'failed', 'skipped']),
    durationMs: z.number().int().nonnegative().optional(),
    message: z.string().optional(),
    error: error.optional(),
  }),
  z.object({
    ...common,
    type: z.literal('rollback'),
    stack: z.string(),
    resource: z.object({ logicalId: z.string() }),
    status: z.enum(['succeeded', 'skipped', 'failed']),
    /** The step needs a person (the run exits 2). */
    needsAttention: z.boolean(),
    message: z.string(),
  }),
  z.object({
    ...common,
    type: z.literal('phase'),
    stack: z.string(),
    phase: z.string(),
    durationMs: z.number().int().nonnegative(),
  }),
  z.object({ ...common, type: z.literal('warning'), stack: z.string().optional(), message: z.string() }),
  z.object({ ...common, type: z.literal('note'), message: z.string() }),
]);

export type ProgressEvent = z.infer<typeof progressEventSchema>;

/** What every event of one run shares. */
export interface ProgressRun {
  run: string;
  command: string;
  started: number;
}

function stamp(run: ProgressRun, now: number) {
  return {
    v: PROGRESS_EVENTS_VERSION,
    run: run.run,
    command: run.command,
    time: new Date(now).toISOString(),
    elapsedMs: Math.max(0, now - run.started),
  } as const;
}

/** The stream's event for one engine event. */
export function progressEventOf(event: DeployEvent, run: ProgressRun, now: number): ProgressEvent {
  const base = stamp(run, now);
  switch (event.kind) {
    case 'resource':
      return {
        ...base,
        type: 'resource',
        stack: event.stack,
        resource: {
          logicalId: event.logicalId,
          type: event.type,
          ...(event.physicalId !== undefined && { physicalId: event.physicalId }),
        },
        action: event.action,
        status: event.status,
        ...(event.durationMs !== undefined && { durationMs: event.durationMs }),
        ...(event.status === 'failed'
          ? {
              error: {
                message: event.message ?? 'failed',
                ...(event.errorCode !== undefined && { code: event.errorCode }),
              },
            }
          : event.message !== undefined && { message: event.message }),
      };
    case 'stack':
      return {
        ...base,
        type: 'stack',
        stack: event.stack,
        status: event.status,
        ...(event.total !== undefined && { total: event.total }),
        ...(event.status === 'failed' && { error: { message: event.message ?? 'failed' } }),
      };
    case 'rollback':
      return {
        ...base,
        type: 'rollback',
        stack: event.stack,
        resource: { logicalId: event.logicalId },
        status: event.status,
        needsAttention: event.warn,
        message: event.message,
      };
    case 'phase':
      return { ...base, type: 'phase', stack: event.stack, phase: event.phase, durationMs: event.durationMs };
    case 'warning':
      return { ...base, type: 'warning', stack: event.stack, message: event.message };
  }
}

/** The run's first or last event; a failed run names the error's code and hint. */
export function runEvent(
  run: ProgressRun,
  now: number,
  outcome: { status: 'started' | 'succeeded' } | { status: 'failed'; error: z.infer<typeof error> },
): ProgressEvent {
  return {
    ...stamp(run, now),
    type: 'run',
    ...outcome,
    ...(outcome.status !== 'started' && { durationMs: Math.max(0, now - run.started) }),
  };
}

/** A line of information between the events (a skipped stack, an asset published ...). */
export function noteEvent(run: ProgressRun, now: number, message: string): ProgressEvent {
  return { ...stamp(run, now), type: 'note', message };
}

/** `--progress errors` keeps what a CI log needs: failures, warnings, rollback steps and the run's end. */
export function keptWhenErrorsOnly(event: ProgressEvent): boolean {
  switch (event.type) {
    case 'run':
      return event.status !== 'started';
    case 'warning':
      return true;
    case 'rollback':
      return event.status === 'failed' || event.needsAttention;
    case 'resource':
    case 'stack':
      return event.status === 'failed';
    default:
      return false;
  }
}

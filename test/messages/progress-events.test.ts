import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import type { DeployEvent, ProgressEvent } from '../../src/messages/index.js';
import {
  keptWhenErrorsOnly,
  progressEventOf,
  progressEventSchema,
  runEvent,
} from '../../src/messages/progress-events.js';
import { eventStream } from '../../src/cli/progress/progress-stream.js';

const run = { run: 'run-1', command: 'deploy', started: Date.parse('2026-01-01T00:00:00Z') };
const at = run.started + 1500;

describe('one stream event per engine event, valid against the schema', () => {
  it.each<[string, DeployEvent, Partial<ProgressEvent>]>([
    [
      'a resource that started',
      {
        kind: 'resource',
        stack: 'S',
        logicalId: 'Q',
        type: 'AWS::SQS::Queue',
        action: 'create',
        status: 'started',
      },
      {
        type: 'resource',
        stack: 'S',
        resource: { logicalId: 'Q', type: 'AWS::SQS::Queue' },
        status: 'started',
      },
    ],
    [
      'a resource that failed, with its error code',
      {
        kind: 'resource',
        stack: 'S',
        logicalId: 'Q',
        type: 'AWS::SQS::Queue',
        action: 'create',
        status: 'failed',
        message: 'injected',
        errorCode: 'InvalidAttributeValue',
        durationMs: 12,
      },
      {
        type: 'resource',
        status: 'failed',
        durationMs: 12,
        error: { code: 'InvalidAttributeValue', message: 'injected' },
      },
    ],
    [
      'a stack that started',
      { kind: 'stack', stack: 'S', status: 'started', total: 3 },
      { type: 'stack', status: 'started', total: 3 },
    ],
    [
      'a stack that failed',
      { kind: 'stack', stack: 'S', status: 'failed', message: 'boom' },
      { type: 'stack', status: 'failed', error: { message: 'boom' } },
    ],
    [
      'a rollback step',
      { kind: 'rollback', stack: 'S', logicalId: 'T', status: 'succeeded', warn: false, message: 'deleted' },
      { type: 'rollback', resource: { logicalId: 'T' }, needsAttention: false },
    ],
    [
      'a phase',
      { kind: 'phase', stack: 'S', phase: 'plan', durationMs: 5 },
      { type: 'phase', phase: 'plan', durationMs: 5 },
    ],
    [
      'a warning',
      { kind: 'warning', stack: 'S', message: 'careful' },
      { type: 'warning', message: 'careful' },
    ],
  ])('%s', (_case, event, expected) => {
    const streamed = progressEventOf(event, run, at);
    expect(progressEventSchema.parse(streamed)).toEqual(streamed);
    expect(streamed).toMatchObject({
      v: 1,
      run: 'run-1',
      command: 'deploy',
      time: '2026-01-01T00:00:01.500Z',
      elapsedMs: 1500,
      ...expected,
    });
  });

  it('the schema refuses another version or a missing run id', () => {
    const streamed = progressEventOf({ kind: 'warning', stack: 'S', message: 'm' }, run, at);
    expect(progressEventSchema.safeParse({ ...streamed, v: 2 }).success).toBe(false);
    expect(progressEventSchema.safeParse({ ...streamed, run: '' }).success).toBe(false);
  });
});

describe('--progress errors keeps failures, warnings and the end of the run', () => {
  const resource = (status: 'started' | 'succeeded' | 'failed' | 'skipped') =>
    progressEventOf(
      { kind: 'resource', stack: 'S', logicalId: 'Q', type: 'T', action: 'create', status },
      run,
      at,
    );
  const rollback = (status: 'succeeded' | 'failed', warn: boolean) =>
    progressEventOf({ kind: 'rollback', stack: 'S', logicalId: 'Q', status, warn, message: 'm' }, run, at);
  it.each<[string, ProgressEvent, boolean]>([
    ['the run starting', runEvent(run, at, { status: 'started' }), false],
    ['the run succeeding', runEvent(run, at, { status: 'succeeded' }), true],
    ['the run failing', runEvent(run, at, { status: 'failed', error: { message: 'x' } }), true],
    ['a resource starting', resource('started'), false],
    ['a resource succeeding', resource('succeeded'), false],
    ['a resource failing', resource('failed'), true],
    ['a stack failing', progressEventOf({ kind: 'stack', stack: 'S', status: 'failed' }, run, at), true],
    [
      'a stack succeeding',
      progressEventOf({ kind: 'stack', stack: 'S', status: 'succeeded' }, run, at),
      false,
    ],
    ['a rollback step done', rollback('succeeded', false), false],
    ['a rollback step that needs a person', rollback('succeeded', true), true],
    ['a rollback step that failed', rollback('failed', false), true],
    ['a warning', progressEventOf({ kind: 'warning', stack: 'S', message: 'm' }, run, at), true],
    ['a phase', progressEventOf({ kind: 'phase', stack: 'S', phase: 'plan', durationMs: 1 }, run, at), false],
  ])('%s', (_case, event, kept) => expect(keptWhenErrorsOnly(event)).toBe(kept));
});

describe('the stream', () => {
  it("starts and ends the run; a failed run's last event names cdkd's code and hint", () => {
    const lines: string[] = [];
    let now = run.started;
    const stream = eventStream(
      'events',
      'deploy',
      (line) => lines.push(line),
      () => now,
    );
    now += 10;
    stream.sink({ kind: 'warning', stack: 'S', message: 'careful' });
    now += 10;
    stream.ended(new CdkdError('EXPORT_IN_USE', 'in use', { hint: 'deploy the importers first' }));
    stream.ended();
    const events = lines.map((line) => progressEventSchema.parse(JSON.parse(line)));
    expect(events.map((e) => e.type)).toEqual(['run', 'warning', 'run']);
    expect(new Set(events.map((e) => e.run)).size).toBe(1);
    expect(events.at(-1)).toMatchObject({
      status: 'failed',
      durationMs: 20,
      error: { code: 'EXPORT_IN_USE', message: 'in use', hint: 'deploy the importers first' },
    });
  });
});

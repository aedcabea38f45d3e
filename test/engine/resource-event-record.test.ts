import { describe, expect, it } from 'vitest';
import type { DeployEvent } from '../../src/engine/events.js';
import { resourceOperationEvent, RetryTimes } from '../../src/engine/deploy/resource-event-record.js';

type ResourceEvent = Extract<DeployEvent, { kind: 'resource' }>;
const NOW = new Date('2026-01-01T00:00:10.000Z');
const base = { kind: 'resource', stack: 'S', logicalId: 'Q', type: 'AWS::SQS::Queue' } as const;

describe('resourceOperationEvent', () => {
  it.each<[ResourceEvent['action'], ResourceEvent['status'], string | undefined]>([
    ['create', 'succeeded', 'CREATE_COMPLETE'],
    ['create', 'failed', 'CREATE_FAILED'],
    ['update', 'succeeded', 'UPDATE_COMPLETE'],
    ['replace', 'succeeded', 'UPDATE_COMPLETE'],
    ['delete', 'succeeded', 'DELETE_COMPLETE'],
    ['delete', 'failed', 'DELETE_FAILED'],
    ['create', 'started', undefined],
    ['create', 'skipped', undefined],
    ['no-op', 'succeeded', undefined],
    ['retain', 'succeeded', undefined],
  ])('%s %s → %s', (action, status, stored) => {
    const event = resourceOperationEvent({ ...base, action, status, durationMs: 2500 }, NOW);
    expect(event?.status).toBe(stored);
  });

  it('stores the start as the end less the duration, and the failure reason', () => {
    const event = resourceOperationEvent(
      {
        ...base,
        action: 'create',
        status: 'failed',
        durationMs: 2500,
        message: 'AccessDenied',
        physicalId: 'q-1',
      },
      NOW,
    );
    expect(event).toEqual({
      status: 'CREATE_FAILED',
      logicalId: 'Q',
      resourceType: 'AWS::SQS::Queue',
      physicalId: 'q-1',
      reason: 'AccessDenied',
      action: 'create',
      startedAt: '2026-01-01T00:00:07.500Z',
    });
  });
});

describe('RetryTimes', () => {
  /** A retry that runs `call` until it succeeds, waiting `pauseMs` after each failure. */
  const retryingFake =
    (pauseMs: number) =>
    async <T>(_label: string, call: () => Promise<T>): Promise<T> => {
      for (;;) {
        try {
          return await call();
        } catch {
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      }
    };

  it('counts failed attempts and the waits between them, none for a first-time success', async () => {
    const times = new RetryTimes();
    const retry = times.wrap(retryingFake(60));
    let failures = 2;
    await retry('Flaky', async () => {
      if (failures-- > 0) throw new Error('Throttling');
      return 'ok';
    });
    await retry('Steady', async () => 'ok');
    expect(times.take('Flaky')).toBeGreaterThanOrEqual(110);
    expect(times.take('Flaky')).toBe(0);
    expect(times.take('Steady')).toBe(0);
  });

  it('stores the time spent retrying on the ended operation', () => {
    const event = resourceOperationEvent(
      { ...base, action: 'update', status: 'succeeded', durationMs: 900 },
      NOW,
      400,
    );
    expect(event).toMatchObject({ status: 'UPDATE_COMPLETE', retryMs: 400 });
  });
});

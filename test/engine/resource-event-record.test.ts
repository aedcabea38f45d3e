import { describe, expect, it } from 'vitest';
import type { DeployEvent } from '../../src/engine/events.js';
import { resourceOperationEvent } from '../../src/engine/resource-event-record.js';

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

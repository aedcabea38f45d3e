import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { queueRecord, useRollbackHarness } from './rollback-harness.js';

// Spec 000, "Reversing a replacement": on the create-first order the new copy is
// deleted first only when it provably holds the name the re-create collided on.
const h = useRollbackHarness();
const QUEUE = 'AWS::SQS::Queue';

/** A completed create-first replacement whose old copy the cleanup phase deleted; the new copy is live. */
function replacedQueue(options: {
  newName: string;
  newPolicy?: string;
  oldProperties?: Record<string, unknown>;
  alsoDeleted?: string;
}): Promise<StackRequest> {
  h.cloud.uniqueQueueNames = true;
  return h.replacedQueue({
    current: queueRecord(
      'queue-new',
      { QueueName: options.newName, DelaySeconds: 5 },
      options.newPolicy ? { updateReplacePolicy: options.newPolicy } : {},
    ),
    old: queueRecord('queue-old', options.oldProperties ?? { QueueName: 'shared' }),
    verdict: { replacement: true, order: 'create-first', oldDeleted: true },
    earlier: options.alsoDeleted
      ? [
          {
            logicalId: 'Target',
            action: 'delete',
            type: QUEUE,
            status: 'completed',
            physicalId: options.alsoDeleted,
          },
        ]
      : [],
  });
}

const liveNames = () => [...h.cloud.live.values()].map((live) => live.properties.QueueName).sort();

describe('a re-create that collides on its name', () => {
  it('deletes the new copy first when its record holds the very name, then re-creates the old one', async () => {
    const request = await replacedQueue({ newName: 'shared' });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.live.has('queue-new')).toBe(false);
    expect([...h.cloud.live.values()].map((live) => live.properties)).toEqual([{ QueueName: 'shared' }]);
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.properties).toEqual({ QueueName: 'shared' });
    expect(h.cloud.live.has(state.resources.Queue!.physicalId)).toBe(true);
  });

  it('is refused, nothing deleted, when something else holds the name (the three ways out)', async () => {
    const request = await replacedQueue({ newName: 'renamed' });
    h.cloud.live.set('outsider', { type: QUEUE, properties: { QueueName: 'shared' } });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(liveNames()).toEqual(['renamed', 'shared']);
    const [event] = h.rollbackEvents('Queue');
    expect(event?.message).toContain('ROLLBACK_NAME_COLLISION');
    expect(event?.message).toContain('--orphan Queue');
    expect(await h.journal(request)).toBeDefined();
  });

  it('is refused when the new copy holding the name declares UpdateReplacePolicy: Retain', async () => {
    const request = await replacedQueue({ newName: 'shared', newPolicy: 'Retain' });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.live.has('queue-new')).toBe(true);
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('ROLLBACK_NAME_HELD_BY_RETAINED');
  });

  it('is refused when the old properties name a resource the same deploy deleted: the new copy is not deleted to free a name', async () => {
    const request = await replacedQueue({
      newName: 'shared',
      oldProperties: { QueueName: 'shared', RedrivePolicy: { deadLetterTargetArn: 'target-1' } },
      alsoDeleted: 'target-1',
    });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.live.has('queue-new')).toBe(true);
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('ROLLBACK_NAME_COLLISION');
    // "The rollback says so in a warning": in the plan before confirming, and in the refusal.
    expect(result.lines.join('\n')).toMatch(
      /Queue \(AWS::SQS::Queue\): reverse-replace \(create-first\): .*; warning: its old properties name Target, which the same deploy replaced or deleted/,
    );
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('Warning: its old properties name Target');
    // The new copy provably holds the name: the refusal says so, rather than that cdkd cannot tell.
    expect(h.rollbackEvents('Queue')[0]?.message).toContain(
      'the name shared is held by the new resource, and cdkd does not delete it to free the name',
    );
  });
});

describe('a re-create that succeeded, then a failed delete of the new copy', () => {
  it('leaves state on the old resource and reports the new copy as a survivor: exit 2, not a failed step', async () => {
    const request = await replacedQueue({ newName: 'renamed' });
    h.cloud.failOn.add('delete:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.properties).toEqual({ QueueName: 'shared' });
    expect(h.cloud.live.has(state.resources.Queue!.physicalId)).toBe(true);
    expect(h.cloud.live.has('queue-new')).toBe(true);
    expect(await h.stackEvents(request)).toContainEqual(
      expect.objectContaining({
        status: 'ROLLBACK_RESOURCE_SUCCEEDED',
        logicalId: 'Queue',
        survivorId: 'queue-new',
        reason: expect.stringContaining('deleting the new copy queue-new failed'),
      }),
    );
    // DELETE_SKIPPED is UpdateReplacePolicy: Retain's; this copy's delete was attempted and failed.
    expect((await h.stackEvents(request)).filter((event) => event.status === 'DELETE_SKIPPED')).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });
});

describe('a re-create whose state save fails', () => {
  it('names the re-created resource as a survivor, so its id is not lost with the save', async () => {
    const request = await replacedQueue({ newName: 'renamed' });
    const store = h.backend.store;
    const save = store.saveText.bind(store);
    store.saveText = async (ref, text, etag) => {
      const queue = (JSON.parse(text) as { resources: Record<string, { physicalId: string }> }).resources
        .Queue;
      if (queue && queue.physicalId !== 'queue-new') throw new Error('the state bucket is unreachable');
      return save(ref, text, etag);
    };
    try {
      expect((await h.rollback(request)).exitCode).toBe(1);
    } finally {
      store.saveText = save;
    }
    const recreated = h.cloud.calls.find((call) => call.action === 'create')!.physicalId;
    expect(h.cloud.live.has(recreated)).toBe(true);
    expect(await h.stackEvents(request)).toContainEqual(
      expect.objectContaining({
        status: 'ROLLBACK_RESOURCE_FAILED',
        logicalId: 'Queue',
        survivorId: recreated,
      }),
    );
    expect(h.events).toContainEqual(
      expect.objectContaining({
        kind: 'warning',
        message: expect.stringContaining(`as ${recreated}, but state could not record it`),
      }),
    );
  });
});

describe('a re-create the service answers with the live new copy (SQS, SNS return what holds the name)', () => {
  it('keeps it, since deleting "the new copy" would delete what state now names; exit 2 with the reason', async () => {
    const request = await replacedQueue({ newName: 'shared' });
    const create = h.cloud.provider.create;
    h.cloud.provider.create = async (createRequest, context) =>
      createRequest.logicalId === 'Queue'
        ? { physicalId: 'queue-new', attributes: {} }
        : create(createRequest, context);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.live.has('queue-new')).toBe(true);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('queue-new');
    expect(h.rollbackEvents('Queue')[0]?.message).toContain('not fully reversed');
  });
});

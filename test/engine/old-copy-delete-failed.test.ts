import { describe, expect, it } from 'vitest';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 002 ("How the stateful list is kept complete", AWS::S3Tables::Namespace): when the old
 * copy a create-first replacement left cannot be deleted, cdkd warns "Failed to delete old
 * resource" and carries on. cdkd keeps that copy in state as a pending delete (every resource
 * the cloud holds stays tracked), and the next deploy tries the delete again.
 */
const h = useRollbackHarness();

const template = (queueName: string) => ({
  Resources: {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
    Reader: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'Queue' } } },
  },
});

describe('a replacement whose old copy AWS refuses to delete', () => {
  it('warns and carries on: the deploy succeeds (exit 2), the old copy stays tracked as a pending delete', async () => {
    const request = h.stack(template('first'));
    await (await h.engine()).deploy(request, options);
    const oldId = (await h.state(request))!.resources.Queue!.physicalId;
    h.cloud.failOn.add('delete:Queue');

    const result = await (await h.engine()).deploy({ ...request, template: template('second') }, options);
    const state = (await h.state(request))!;
    const newId = state.resources.Queue!.physicalId;
    expect(newId).not.toBe(oldId);
    expect(state.resources.Reader!.properties).toEqual({ DisplayName: newId });
    expect(state.pendingDeletes).toMatchObject([{ logicalId: 'Queue', record: { physicalId: oldId } }]);
    expect(result.unaddressed).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Failed to delete old resource ${oldId} \\(AWS::SQS::Queue\\) that the replacement of Queue left: injected delete failure on Queue\\. It stays in state as a pending delete and the next cdkd deploy tries again`,
        ),
      ),
    ]);
    expect(h.events).toContainEqual(
      expect.objectContaining({
        kind: 'warning',
        message: expect.stringContaining('Failed to delete old resource'),
      }),
    );
    expect(h.cloud.liveIds()).toEqual(
      [newId, oldId, h.cloud.liveIds().find((id) => id.startsWith('reader'))!].sort(),
    );
    expect(await h.journal(request)).toBeUndefined();

    // The next deploy deletes it once AWS lets it go.
    h.cloud.failOn.clear();
    const next = await (await h.engine()).deploy({ ...request, template: template('second') }, options);
    expect(next.unaddressed).toEqual([]);
    expect((await h.state(request))!.pendingDeletes).toEqual([]);
    expect(h.cloud.live.has(oldId)).toBe(false);
  });
});

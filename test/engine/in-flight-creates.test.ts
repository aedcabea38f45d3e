import { describe, expect, it } from 'vitest';
import { options, useRollbackHarness } from './rollback-harness.js';

// Issue 25 item 11: a create a killed run left in flight is settled by reading the cloud on
// every path that ends a journal (cdkd destroy, a successful deploy), never dropped unread.
const h = useRollbackHarness();

/** A stack deployed with `Keep`, then a killed run's journal: `Lost`'s create in flight, its queue made. */
async function killedRun(made: boolean) {
  const request = h.stack({ Resources: { Keep: { Type: 'AWS::SQS::Queue' } } });
  await (await h.engine()).deploy(request, options);
  if (made) {
    h.cloud.live.set('lost-1', {
      type: 'AWS::SQS::Queue',
      properties: {},
      token: 'tok-lost',
      creationIdentity: { Arn: 'arn:lost-1' },
    });
  }
  await h.writeJournal(request, [
    {
      logicalId: 'Lost',
      action: 'create',
      type: 'AWS::SQS::Queue',
      status: 'in-flight',
      attempted: {},
      idempotencyToken: 'tok-lost',
      name: 'lost-name',
    },
  ]);
  h.cloud.calls.length = 0;
  return request;
}

describe('cdkd destroy over a journal holding an in-flight create', () => {
  it('deletes what the create made, found by its token, before the journal goes with the state', async () => {
    const request = await killedRun(true);
    h.cloud.enableLocate();
    await (await h.engine()).destroy(request, options);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toContain('delete:lost-1');
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('one nothing can settle stops the destroy before anything is deleted, state and journal kept', async () => {
    const request = await killedRun(true);
    await expect((await h.engine()).destroy(request, options)).rejects.toMatchObject({
      code: 'DESTROY_FAILED',
      message: expect.stringContaining(
        'Lost (AWS::SQS::Queue) was in flight when an earlier run stopped, and cdkd cannot tell whether it made its resource (under the name lost-name)',
      ),
    });
    expect(h.cloud.calls.filter((call) => call.action === 'delete')).toEqual([]);
    expect(Object.keys((await h.state(request))!.resources)).toEqual(['Keep']);
    expect((await h.journal(request))?.segments[0]?.operations).toMatchObject([{ status: 'in-flight' }]);
  });
});

describe('a successful deploy over a journal holding an earlier run’s in-flight create', () => {
  it('settles it as a failed create that made its resource: deleted once no record holds it, its identity read when located', async () => {
    const request = await killedRun(true);
    h.cloud.enableLocate();
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([]);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.physicalId}`)).toContain('delete:lost-1');
    expect(h.cloud.live.has('lost-1')).toBe(false);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('one nothing can settle stays in the journal, warned about (exit 2)', async () => {
    const request = await killedRun(true);
    const result = await (await h.engine()).deploy(request, options);
    expect(result.unaddressed).toEqual([
      expect.stringContaining('Lost (AWS::SQS::Queue) was in flight when an earlier run stopped'),
    ]);
    expect(h.cloud.live.has('lost-1')).toBe(true);
    expect((await h.journal(request))?.segments.flatMap((segment) => segment.operations)).toMatchObject([
      { logicalId: 'Lost', status: 'in-flight' },
    ]);
  });

  it('a record this deploy made under the same logical id is not taken for what the earlier create made', async () => {
    const request = await killedRun(true);
    h.cloud.enableLocate();
    const again = {
      ...request,
      template: { Resources: { Keep: { Type: 'AWS::SQS::Queue' }, Lost: { Type: 'AWS::SQS::Queue' } } },
    };
    const result = await (await h.engine()).deploy(again, options);
    const recorded = (await h.state(request))!.resources.Lost!.physicalId;
    expect(recorded).not.toBe('lost-1');
    // The earlier create's queue is named for a person, not passed over as this deploy's record.
    expect(result.unaddressed).toEqual([expect.stringContaining('lost-1')]);
    expect(h.cloud.live.has(recorded)).toBe(true);
  });
});

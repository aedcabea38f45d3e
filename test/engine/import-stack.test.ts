import { CreateQueueCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { FAIL_FAST_SCHEDULE } from '../../src/state/lock-schedule.js';
import {
  NEXT_CREATE_QUEUE_FAILS,
  REGION,
  stackIdentity,
  useSandboxEngine,
} from '../helpers/sandbox-engine.js';

// Spec 001, "Interaction with cdkd import", and spec 003's fail-fast lock, on the sandbox.
const h = useSandboxEngine('import-engine-state');

const named = (name: string) => ({ Type: 'AWS::SQS::Queue', Properties: { QueueName: name } });
const request = (stackName: string, resources: Record<string, unknown>) => ({
  ...stackIdentity(stackName),
  template: { Resources: resources },
});
const ref = (stackName: string) => ({ stackName, region: REGION });

async function queueByHand(name: string): Promise<string> {
  const sqs = await h.clients.client(SQSClient, REGION);
  await sqs.send(new CreateQueueCommand({ QueueName: name }));
  return (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
}

describe('cdkd import and the rollback journal', () => {
  it('marks every journal segment before writing state, and the rollback then leaves the adopted resource alone', async () => {
    await h.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(h.deploy('Marked', { Jobs: named('jobs') }, { rollback: false })).rejects.toThrow();
    const url = await queueByHand('jobs');

    const engine = await h.engine();
    const imported = await engine.importResources(request('Marked', { Jobs: named('jobs') }), [
      { logicalId: 'Jobs', physicalId: url },
    ]);
    expect(imported).toEqual([
      { logicalId: 'Jobs', type: 'AWS::SQS::Queue', physicalId: url, differing: [] },
    ]);
    const journal = (await h.backend.journals.read(ref('Marked')))!.document;
    expect(journal.segments.length).toBeGreaterThan(0);
    for (const segment of journal.segments) {
      expect(segment.importMarks).toMatchObject([
        { logicalId: 'Jobs', type: 'AWS::SQS::Queue', physicalId: url },
      ]);
    }
    expect((await h.backend.store.read(ref('Marked')))!.document.resources.Jobs!.physicalId).toBe(url);

    const lines: string[] = [];
    await h.rollback('Marked', {
      revertFailed: true,
      confirm: async (plan) => {
        lines.push(...plan);
        return true;
      },
    });
    // The failed create recorded no id, so the import counts as a different resource: warned, left alone.
    expect(lines.join('\n')).toContain('which cdkd import has since replaced under this id');
    const sqs = await h.clients.client(SQSClient, REGION);
    expect((await sqs.send(new GetQueueUrlCommand({ QueueName: 'jobs' }))).QueueUrl).toBe(url);
  });

  it('records nothing when the journal cannot be written', async () => {
    await h.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      h.deploy('Unwritable', { Jobs: named('unwritable') }, { rollback: false }),
    ).rejects.toThrow();
    const url = await queueByHand('unwritable');
    const before = await h.backend.store.read(ref('Unwritable'));
    // The lock's create is the first PutObject; the journal's marks are the second.
    await h.addFault({
      service: 's3',
      operation: 'PutObject',
      nth: 2,
      errorCode: 'AccessDenied',
      httpStatus: 403,
    });

    const engine = await h.engine();
    await expect(
      engine.importResources(request('Unwritable', { Jobs: named('unwritable') }), [
        { logicalId: 'Jobs', physicalId: url },
      ]),
    ).rejects.toMatchObject({ code: 'IMPORT_JOURNAL_UNAVAILABLE' });
    expect((await h.backend.store.read(ref('Unwritable')))?.etag).toBe(before?.etag);
    expect((await h.backend.store.read(ref('Unwritable')))?.document.resources.Jobs).toBeUndefined();
    const journal = (await h.backend.journals.read(ref('Unwritable')))!.document;
    expect(journal.segments.every((segment) => segment.importMarks.length === 0)).toBe(true);
  });

  it('fails fast on a held lock, recording nothing', async () => {
    const url = await queueByHand('locked');
    const held = await h.backend.locks.acquire(ref('Locked'), {
      operation: 'deploy',
      schedule: FAIL_FAST_SCHEDULE,
    });
    try {
      const engine = await h.engine();
      await expect(
        engine.importResources(request('Locked', { Q: named('locked') }), [
          { logicalId: 'Q', physicalId: url },
        ]),
      ).rejects.toMatchObject({ code: 'LOCK_HELD' });
    } finally {
      await held.release();
    }
    expect(await h.backend.store.read(ref('Locked'))).toBeUndefined();
  });

  it('resolves a reference between two imported resources, and refuses a logical id state already records', async () => {
    const queueUrl = await queueByHand('reader-target');
    const topicResources = {
      Target: named('reader-target'),
      Reader: {
        Type: 'AWS::SQS::Queue',
        Properties: { QueueName: { 'Fn::Join': ['-', [{ 'Fn::GetAtt': ['Target', 'QueueName'] }, 'dlq']] } },
      },
    };
    const readerUrl = await queueByHand('reader-target-dlq');
    const engine = await h.engine();
    const imported = await engine.importResources(request('Pair', topicResources), [
      { logicalId: 'Reader', physicalId: readerUrl },
      { logicalId: 'Target', physicalId: queueUrl },
    ]);
    expect(imported.map((resource) => [resource.logicalId, resource.differing])).toEqual([
      ['Target', []],
      ['Reader', []],
    ]);
    const result = await h.deploy('Pair', topicResources);
    expect(result.plan.operations.map((op) => op.kind)).toEqual(['no-op', 'no-op']);

    await expect(
      engine.importResources(request('Pair', topicResources), [
        { logicalId: 'Target', physicalId: queueUrl },
      ]),
    ).rejects.toMatchObject({ code: 'IMPORT_ALREADY_MANAGED' });
  });
});

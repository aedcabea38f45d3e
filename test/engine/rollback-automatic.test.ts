import { describe, expect, it } from 'vitest';
import { options, useRollbackHarness } from './rollback-harness.js';

const h = useRollbackHarness();

const callsOf = (action: string, logicalId: string) =>
  h.cloud.calls.filter((call) => call.action === action && call.logicalId === logicalId);

describe('automatic rollback of a failed deploy', () => {
  it("says what happened after the failure's own sentence, without doubling its period", async () => {
    const request = h.stack({ Resources: { Q: { Type: 'AWS::SQS::Queue' } } });
    h.cloud.failOn.add('create:Q');
    h.cloud.failMessage.set('create:Q', 'Invalid value for the parameter DelaySeconds.');
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      message: expect.stringMatching(/DelaySeconds\. Rolled back: the stack is as it was/),
    });
  });

  it('a create failing mid-stack deletes everything the run created and keeps only the failed operation', async () => {
    const request = h.stack({
      Resources: {
        A: { Type: 'AWS::SQS::Queue' },
        B: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'A' } } },
        C: { Type: 'AWS::SQS::Queue', DependsOn: 'B' },
      },
    });
    h.cloud.failOn.add('create:C');
    const liveBefore = h.cloud.liveIds();

    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringMatching(/injected create failure on C\. Rolled back: the stack is as it was/),
    });

    const created = h.cloud.calls.filter((call) => call.action === 'create');
    expect(created.map((call) => call.logicalId)).toEqual(['A', 'B']);
    // Newest first: the reader before what it reads.
    expect(h.cloud.calls.filter((call) => call.action === 'delete').map((call) => call.physicalId)).toEqual([
      created[1]!.physicalId,
      created[0]!.physicalId,
    ]);
    expect(h.cloud.liveIds()).toEqual(liveBefore);
    expect(await h.state(request)).toBeUndefined();

    const journal = await h.journal(request);
    expect(journal!.segments).toHaveLength(1);
    expect(journal!.segments[0]!.status).toBe('failed-only');
    expect(journal!.segments[0]!.operations.map((op) => [op.logicalId, op.action, op.status])).toEqual([
      ['C', 'create', 'failed'],
    ]);

    const recorded = await h.stackEvents(request);
    const succeeded = recorded.filter((event) => event.status === 'ROLLBACK_RESOURCE_SUCCEEDED');
    expect(succeeded.map((event) => [event.logicalId, event.physicalId]).sort()).toEqual([
      ['A', created[0]!.physicalId],
      ['B', created[1]!.physicalId],
    ]);
    expect(recorded.map((event) => event.status)).toContain('ROLLBACK_COMPLETE');
    expect(recorded.map((event) => event.status)).not.toContain('ROLLBACK_FAILED');
  });

  it('an update failing on an existing stack puts the updated resources and the stack record back', async () => {
    const template = (visibility: number) => ({
      Parameters: { Env: { Type: 'String' } },
      Resources: {
        Queue: {
          Type: 'AWS::SQS::Queue',
          Properties: { VisibilityTimeout: visibility, Tags: [{ Key: 'env', Value: { Ref: 'Env' } }] },
        },
        Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: `topic-${visibility}` } },
        Late: {
          Type: 'AWS::SNS::Topic',
          DependsOn: ['Queue', 'Topic'],
          Properties: { DisplayName: `late-${visibility}` },
        },
      },
      Outputs: { Version: { Value: `v${visibility}` } },
    });
    const first = h.stack(template(30), { Env: 'one' });
    await (await h.engine()).deploy(first, options);
    const before = (await h.state(first))!;
    const queueId = before.resources.Queue!.physicalId;
    const topicId = before.resources.Topic!.physicalId;

    h.cloud.failOn.add('update:Late');
    h.cloud.calls.length = 0;
    const second = { ...first, template: template(60), parameters: { Env: 'two' } };
    await expect((await h.engine()).deploy(second, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringContaining('Rolled back'),
    });

    // Each updated resource was sent the new properties, then its pre-deploy ones.
    expect(callsOf('update', 'Queue').map((call) => call.properties)).toEqual([
      { VisibilityTimeout: 60, Tags: [{ Key: 'env', Value: 'two' }] },
      { VisibilityTimeout: 30, Tags: [{ Key: 'env', Value: 'one' }] },
    ]);
    expect(h.cloud.live.get(queueId)!.properties).toEqual({
      VisibilityTimeout: 30,
      Tags: [{ Key: 'env', Value: 'one' }],
    });
    expect(h.cloud.live.get(topicId)!.properties).toEqual({ DisplayName: 'topic-30' });

    const after = (await h.state(first))!;
    expect(after.resources.Queue!.properties).toEqual(before.resources.Queue!.properties);
    expect(after.resources.Queue!.propertyHash).toBe(before.resources.Queue!.propertyHash);
    expect(after.resources.Topic!.properties).toEqual({ DisplayName: 'topic-30' });
    expect(after.resources.Late!.properties).toEqual({ DisplayName: 'late-30' });
    // Spec 004: the previous generation's template, parameters and outputs.
    expect(after.template).toEqual(template(30));
    expect(after.templateHash).toBe(before.templateHash);
    expect(after.parameters).toEqual({ Env: 'one' });
    expect(after.outputs).toEqual(before.outputs);
    expect(after.outputs.Version!.value).toBe('v30');

    const journal = (await h.journal(first))!;
    expect(journal.segments.map((segment) => segment.status)).toEqual(['failed-only']);
    expect(journal.segments[0]!.operations.map((op) => `${op.action}:${op.logicalId}:${op.status}`)).toEqual([
      'update:Late:failed',
    ]);
  });

  it('a replacement followed by a failure elsewhere deletes the new copy and re-adopts the old one', async () => {
    const template = (queueName: string, late: boolean) => ({
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
        Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::GetAtt': ['Queue', 'Arn'] } } },
        ...(late ? { Late: { Type: 'AWS::SQS::Queue', DependsOn: 'Topic' } } : {}),
      },
    });
    const request = h.stack(template('first-name', false));
    await (await h.engine()).deploy(request, options);
    const oldId = (await h.state(request))!.resources.Queue!.physicalId;
    const liveBefore = h.cloud.liveIds();

    h.cloud.failOn.add('create:Late');
    h.cloud.calls.length = 0;
    await expect(
      (await h.engine()).deploy({ ...request, template: template('second-name', true) }, options),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    const newId = callsOf('create', 'Queue')[0]!.physicalId;
    expect(newId).not.toBe(oldId);
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual([newId]);
    expect(h.cloud.liveIds()).toEqual(liveBefore);
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.physicalId).toBe(oldId);
    expect(state.resources.Queue!.properties).toEqual({ QueueName: 'first-name' });
    expect(state.pendingDeletes).toEqual([]);
    expect(state.resources.Topic!.properties).toEqual({ DisplayName: `arn:fake:${oldId}` });
    expect(h.cloud.live.get(state.resources.Topic!.physicalId)!.properties).toEqual({
      DisplayName: `arn:fake:${oldId}`,
    });
  });

  it('UpdateReplacePolicy: Retain keeps both copies; state names the old one; a later cdkd rollback has nothing left to fail on', async () => {
    const { request, oldId, template } = await h.retainedQueueBeforeFailure();
    await expect(
      (await h.engine()).deploy({ ...request, template: template('second-name', true) }, options),
    ).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringContaining('Rolled back, but some operations need attention'),
    });
    const newId = callsOf('create', 'Queue')[0]!.physicalId;
    expect(callsOf('delete', 'Queue')).toEqual([]);
    expect(h.cloud.liveIds()).toEqual([newId, oldId].sort());
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.physicalId).toBe(oldId);
    expect(JSON.stringify(state)).not.toContain(newId);
    const skipped = (await h.stackEvents(request)).filter((event) => event.status === 'DELETE_SKIPPED');
    expect(skipped).toMatchObject([{ logicalId: 'Queue', survivorId: newId, managedBy: 'cc-api' }]);
    expect(h.rollbackEvents('Queue')).toMatchObject([{ status: 'succeeded', warn: true }]);

    // The replacement is reversed: re-running cdkd rollback must not try to reverse it again.
    h.cloud.calls.length = 0;
    const again = await h.rollback(request);
    expect(again.lines.join('\n')).not.toContain('REFUSED');
    expect(again.exitCode).not.toBe(1);
    expect(h.cloud.calls).toEqual([]);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe(oldId);
  });

  it('a failed create that made its resource has it deleted first, then the rest; the journal goes', async () => {
    const request = h.stack({
      Resources: {
        Keep: { Type: 'AWS::SQS::Queue' },
        Made: { Type: 'AWS::SQS::Queue', DependsOn: 'Keep' },
      },
    });
    h.cloud.madeThenFail.add('create:Made');
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringContaining('injected follow-up failure'),
    });
    const [keep, made] = h.cloud.calls.filter((call) => call.action === 'create');
    expect(h.cloud.calls.filter((call) => call.action === 'delete').map((call) => call.physicalId)).toEqual([
      made!.physicalId,
      keep!.physicalId,
    ]);
    expect(h.cloud.liveIds()).toEqual([]);
    expect(await h.state(request)).toBeUndefined();
    expect(await h.journal(request)).toBeUndefined();
    const succeeded = (await h.stackEvents(request)).filter(
      (event) => event.status === 'ROLLBACK_RESOURCE_SUCCEEDED',
    );
    expect(succeeded.map((event) => event.logicalId).sort()).toEqual(['Keep', 'Made']);
  });
});

describe('a failed create that made its resource under DeletionPolicy: Retain', () => {
  it('is left in AWS with no rollback-orphan record, so no later deploy can re-adopt it', async () => {
    const request = h.stack({
      Resources: { Made: { Type: 'AWS::SQS::Queue', DeletionPolicy: 'Retain' } },
    });
    h.cloud.madeThenFail.add('create:Made');
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    const made = h.cloud.calls.find((call) => call.action === 'create')!.physicalId;
    expect(h.cloud.liveIds()).toEqual([made]);
    const events = await h.stackEvents(request);
    expect(events).toContainEqual(
      expect.objectContaining({ status: 'ROLLBACK_RESOURCE_SUCCEEDED', logicalId: 'Made' }),
    );
    expect(events.filter((event) => event.survivorId !== undefined)).toEqual([]);
    expect(h.rollbackEvents('Made')).toEqual([
      expect.objectContaining({
        warn: true,
        message: expect.stringContaining('kept in AWS by its DeletionPolicy'),
      }),
    ]);
  });
});

describe('a state save that fails right after a create made its resource', () => {
  /** Refuses the first state save in which `logicalId`'s record matches `newRecord`, as a lost connection would. */
  function failFirstSave(logicalId: string, newRecord: (physicalId: string) => boolean): () => void {
    const store = h.backend.store;
    const save = store.saveText.bind(store);
    let failed = false;
    store.saveText = async (ref, text, etag) => {
      const resources = (JSON.parse(text) as { resources: Record<string, { physicalId: string }> }).resources;
      const record = resources[logicalId];
      if (!failed && record && newRecord(record.physicalId)) {
        failed = true;
        throw new Error('the state bucket is unreachable');
      }
      return save(ref, text, etag);
    };
    return () => {
      store.saveText = save;
    };
  }

  it('a create: the journal records the resource as made, and the automatic rollback deletes it', async () => {
    const request = h.stack({ Resources: { Queue: { Type: 'AWS::SQS::Queue' } } });
    const restore = failFirstSave('Queue', () => true);
    try {
      await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
        code: 'DEPLOY_FAILED',
      });
    } finally {
      restore();
    }
    const made = h.cloud.calls.find((call) => call.action === 'create')!.physicalId;
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual([made]);
    expect(h.cloud.liveIds()).toEqual([]);
  });

  it('a replacement: state names the old resource again, and the new copy is deleted', async () => {
    const template = (delay: number) => ({
      Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: `q-${delay}` } } },
    });
    const request = h.stack(template(1));
    await (await h.engine()).deploy(request, options);
    const oldId = (await h.state(request))!.resources.Queue!.physicalId;
    h.cloud.calls.length = 0;
    const restore = failFirstSave('Queue', (physicalId) => physicalId !== oldId);
    try {
      await expect(
        (await h.engine()).deploy({ ...request, template: template(2) }, options),
      ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    } finally {
      restore();
    }
    const newId = h.cloud.calls.find((call) => call.action === 'create')!.physicalId;
    expect(h.cloud.liveIds()).toEqual([oldId]);
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual([newId]);
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.physicalId).toBe(oldId);
    expect(state.pendingDeletes).toEqual([]);
  });
});

describe('replay order', () => {
  it('undoes independent resources at once, and a reader before what it reads', async () => {
    const queues = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }]),
    );
    const request = h.stack({
      Resources: {
        ...queues,
        Reader: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { Ref: 'Queue0' } } },
        Late: { Type: 'AWS::SQS::Queue', DependsOn: [...Object.keys(queues), 'Reader'] },
      },
    });
    h.cloud.failOn.add('create:Late');
    const remove = h.cloud.provider.delete;
    let inFlight = 0;
    let most = 0;
    h.cloud.provider.delete = async (deleteRequest, context) => {
      most = Math.max(most, ++inFlight);
      try {
        return await remove(deleteRequest, context);
      } finally {
        inFlight -= 1;
      }
    };
    await expect((await h.engine()).deploy(request, options)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
    });
    expect(most).toBeGreaterThan(1);
    const deleted = callsOf('delete', 'Reader').concat(callsOf('delete', 'Queue0'));
    expect(deleted).toHaveLength(2);
    const order = h.cloud.calls.filter((call) => call.action === 'delete').map((call) => call.logicalId);
    expect(order.indexOf('Reader')).toBeLessThan(order.indexOf('Queue0'));
    expect(h.cloud.liveIds()).toEqual([]);
  });
});

describe('NoEcho values on a revert', () => {
  const template = (visibility: number) => ({
    Parameters: { Secret: { Type: 'String', NoEcho: true } },
    Resources: {
      Queue: {
        Type: 'AWS::SQS::Queue',
        Properties: { VisibilityTimeout: visibility, Tags: [{ Key: 's', Value: { Ref: 'Secret' } }] },
      },
      Late: {
        Type: 'AWS::SNS::Topic',
        DependsOn: 'Queue',
        Properties: { DisplayName: `late-${visibility}` },
      },
    },
  });

  async function failedUpdate(rollback: boolean) {
    const request = h.stack(template(30), { Secret: 'hunter2' });
    await (await h.engine()).deploy(request, options);
    const queueId = (await h.state(request))!.resources.Queue!.physicalId;
    h.cloud.failOn.add('update:Late');
    h.cloud.calls.length = 0;
    await expect(
      (await h.engine()).deploy(
        { ...request, template: template(60), parameters: { Secret: 'changed!' } },
        { ...options, rollback },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    return { request, queueId };
  }

  it('sends the value AWS holds, never the mask', async () => {
    const { request, queueId } = await failedUpdate(true);
    expect(callsOf('update', 'Queue').map((call) => call.properties)).toEqual([
      { VisibilityTimeout: 60, Tags: [{ Key: 's', Value: 'changed!' }] },
      { VisibilityTimeout: 30, Tags: [{ Key: 's', Value: 'changed!' }] },
    ]);
    expect(JSON.stringify(h.cloud.calls)).not.toContain('***');
    expect(h.cloud.live.get(queueId)!.properties).toEqual({
      VisibilityTimeout: 30,
      Tags: [{ Key: 's', Value: 'changed!' }],
    });
    const state = (await h.state(request))!;
    expect(state.resources.Queue!.properties).toEqual({
      VisibilityTimeout: 30,
      Tags: [{ Key: 's', Value: '***' }],
    });
    expect(JSON.stringify(state)).not.toContain('changed!');
  });

  it('with no readable value the step fails with ROLLBACK_REDACTED_BASELINE, sends nothing, and keeps the journal', async () => {
    const { request, queueId } = await failedUpdate(false);
    h.cloud.failOn.add('read:Queue');
    h.cloud.calls.length = 0;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.get(queueId)!.properties).toEqual({
      VisibilityTimeout: 60,
      Tags: [{ Key: 's', Value: 'changed!' }],
    });
    const journal = (await h.journal(request))!;
    expect(journal.segments).toHaveLength(1);
    expect(journal.segments[0]!.status).toBe('failed');
    expect(journal.segments[0]!.operations.map((op) => op.logicalId)).toEqual(['Queue', 'Late']);
    const failed = (await h.stackEvents(request)).filter(
      (event) => event.status === 'ROLLBACK_RESOURCE_FAILED',
    );
    expect(failed.map((event) => event.logicalId)).toEqual(['Queue']);
    // The error code is what the user looks up: it must reach what the CLI renders.
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'failed', message: expect.stringContaining('ROLLBACK_REDACTED_BASELINE') },
    ]);
  });
});

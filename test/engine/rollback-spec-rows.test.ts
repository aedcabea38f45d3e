import { describe, expect, it } from 'vitest';
import type { StackRequest } from '../../src/engine/stack-request.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { EventLog } from '../../src/state/event-log.js';
import { options, resourceRecord, useRollbackHarness, type HandOperation } from './rollback-harness.js';

/**
 * Spec rows an audit found untested: spec 000 ("cdkd rollback internals": the
 * `--revert-failed` table's made-resource row, "Reversing a replacement") and spec 001
 * ("Reversing a replacement" edge cases, "NoEcho values are not reverted").
 */
const h = useRollbackHarness();
const QUEUE = 'AWS::SQS::Queue';
const TOPIC = 'AWS::SNS::Topic';

const callsOf = (action: string, logicalId: string) =>
  h.cloud.calls.filter((call) => call.action === action && call.logicalId === logicalId);

/** The plan lines `cdkd rollback` shows before asking; declining sends nothing. */
async function planOf(request: StackRequest): Promise<string[]> {
  let shown: string[] = [];
  const declined = await h.rollback(request, {
    confirm: async (lines) => {
      shown = lines;
      return false;
    },
  });
  expect(declined).toMatchObject({ confirmed: false, exitCode: 0 });
  expect(h.cloud.calls).toEqual([]);
  return shown;
}

// ---------------------------------------------------------------------------------------------
// Spec 000, `--revert-failed` table: "CREATE that made its resource and then failed".
// ---------------------------------------------------------------------------------------------

/**
 * A `--no-rollback` deploy whose `Made` queue create made `made` and then failed (segment 1),
 * followed by a later deploy's segment holding `newer(made)` (segment 2, newest).
 */
async function madeThenNewerSegment(newer: (made: string) => HandOperation[]) {
  const { request, made, keep } = await h.madeWithoutRollback(QUEUE);
  h.cloud.madeThenFail.clear();
  const read = (await h.backend.journals.read(h.ref(request)))!;
  const [older] = read.document.segments;
  await h.writeSegments(
    request,
    [{ operations: older!.operations, runId: older!.runId }, { operations: newer(made) }],
    read.etag,
  );
  h.cloud.calls.length = 0;
  return { request, made, keep };
}

/** The newer-segment facts that make something later a possible owner of the made resource. */
const laterOwners: Array<[string, (made: string) => HandOperation[], RegExp]> = [
  [
    'an operation of its type naming its physical id',
    (made) => [{ logicalId: 'Other', action: 'delete', type: QUEUE, status: 'completed', physicalId: made }],
    /a newer deploy names it/,
  ],
  [
    'an operation of its type naming it as the previous physical id',
    (made) => [
      {
        logicalId: 'Other',
        action: 'replace',
        type: QUEUE,
        status: 'failed',
        physicalId: 'other-new',
        previousPhysicalId: made,
      },
    ],
    /a newer deploy names it/,
  ],
  [
    'a completed CREATE of its type',
    () => [{ logicalId: 'Fresh', action: 'create', type: QUEUE, status: 'completed', physicalId: 'fresh-9' }],
    /a newer deploy names it/,
  ],
  [
    'a removal that superseded its logical id',
    // Another type, so only the removal of the logical id can stop the delete.
    () => [{ logicalId: 'Made', action: 'delete', type: TOPIC, status: 'completed', physicalId: 'gone-1' }],
    /a later deploy removed Made/,
  ],
];

describe('a CREATE that made its resource and then failed: deleted only while nothing later can own it', () => {
  it.each(laterOwners)(
    'a NEWER journal segment holding %s: the plan skips it with a warning naming the physical id',
    async (_fact, newer, why) => {
      const { request, made } = await madeThenNewerSegment(newer);
      const lines = await planOf(request);
      const line = lines.find((candidate) => candidate.startsWith('Made (AWS::SQS::Queue): skip: made '));
      expect(line).toMatch(why);
      expect(line).toContain(made);
      expect(line).toContain('may still exist untracked and need manual attention');
      expect(lines).not.toContain(`Made (AWS::SQS::Queue): delete ${made}, which the failed create made`);
    },
  );

  // The run decides each older segment with the newer ones in view, as the confirmed plan did,
  // though it removes each segment from the journal as it finishes it.
  it.each(laterOwners)(
    'a NEWER journal segment holding %s: cdkd rollback leaves it in AWS, warns naming it, and exits 2',
    async (_fact, newer, why) => {
      const { request, made } = await madeThenNewerSegment(newer);
      const result = await h.rollback(request);
      expect(h.cloud.live.has(made)).toBe(true);
      expect(callsOf('delete', 'Made')).toEqual([]);
      expect(result.exitCode).toBe(2);
      expect(h.rollbackEvents('Made')).toContainEqual(
        expect.objectContaining({ status: 'skipped', warn: true, message: expect.stringMatching(why) }),
      );
    },
  );

  it('an operation of ANOTHER type naming its physical id does not stop the delete', async () => {
    const { request, made } = await madeThenNewerSegment((id) => [
      { logicalId: 'Other', action: 'delete', type: TOPIC, status: 'completed', physicalId: id },
    ]);
    expect(await planOf(request)).toContain(
      `Made (AWS::SQS::Queue): delete ${made}, which the failed create made`,
    );
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.live.has(made)).toBe(false);
    expect(callsOf('delete', 'Made').map((call) => call.physicalId)).toEqual([made]);
  });

  it('a redeploy whose create only collided with its name does not stop the delete', async () => {
    // The redeploy's CREATE of the same logical id and type failed on the taken name and recorded no id.
    const { request, made } = await madeThenNewerSegment(() => [
      {
        logicalId: 'Made',
        action: 'create',
        type: QUEUE,
        status: 'failed',
        error: 'A queue named shared already exists',
      },
    ]);
    expect(await planOf(request)).toContain(
      `Made (AWS::SQS::Queue): delete ${made}, which the failed create made`,
    );
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.live.has(made)).toBe(false);
    expect(callsOf('delete', 'Made').map((call) => call.physicalId)).toEqual([made]);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('a rollback-orphan record holding its LOGICAL id stops cdkd rollback deleting it (exit 2)', async () => {
    const { request, made } = await h.madeWithoutRollback(QUEUE);
    h.cloud.madeThenFail.clear();
    // A survivor another resource left under the same logical id: it names another physical id.
    const log = new EventLog(h.backend.objects, h.backend.store.prefix, h.ref(request), 'later-rollback');
    log.record({
      status: 'DELETE_SKIPPED',
      logicalId: 'Made',
      survivorId: 'made-elsewhere',
      managedBy: 'cc-api',
    });
    await log.flush();
    h.cloud.calls.length = 0;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(2);
    expect(h.cloud.live.has(made)).toBe(true);
    expect(callsOf('delete', 'Made')).toEqual([]);
    expect(h.rollbackEvents('Made')).toMatchObject([
      {
        status: 'skipped',
        warn: true,
        message: expect.stringMatching(new RegExp(`made ${made} .*rollback-orphan record holds Made`)),
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Reversing a replacement (spec 000 and spec 001's edge cases), from a hand-written journal.
// ---------------------------------------------------------------------------------------------

/**
 * A completed replacement of `Queue` whose old copy `res-old` was deleted; the new copy
 * `res-new` is live and recorded in state. A Type change when `oldType` differs from `newType`.
 */
async function replaced(
  input: {
    order?: 'create-first' | 'delete-first';
    oldType?: string;
    newType?: string;
    oldProperties?: Record<string, unknown>;
    oldExtra?: Partial<ResourceRecord>;
    newExtra?: Partial<ResourceRecord>;
    newName?: string;
    withoutBefore?: boolean;
  } = {},
): Promise<StackRequest> {
  const oldType = input.oldType ?? QUEUE;
  const newType = input.newType ?? QUEUE;
  const request = h.stack({});
  const current = resourceRecord(
    newType,
    'res-new',
    { QueueName: input.newName ?? 'renamed' },
    input.newExtra,
  );
  h.cloud.live.set('res-new', { type: newType, properties: current.properties });
  const state = emptyStateDocument(request.stateName, request.region);
  state.resources.Queue = current;
  await h.backend.store.save(h.ref(request), state, undefined);
  const before = resourceRecord(
    oldType,
    'res-old',
    input.oldProperties ?? { QueueName: 'shared' },
    input.oldExtra,
  );
  await h.writeJournal(request, [
    {
      logicalId: 'Queue',
      action: 'replace',
      type: newType,
      ...(oldType !== newType ? { previousType: oldType } : {}),
      status: 'completed',
      ...(input.withoutBefore ? {} : { before }),
      after: current,
      physicalId: 'res-new',
      previousPhysicalId: 'res-old',
      verdict: { replacement: true, order: input.order ?? 'create-first', oldDeleted: true },
    },
  ]);
  return request;
}

/** The id the fake gave the re-create of `Queue` (which made it, then failed). */
const recreatedId = () => callsOf('create', 'Queue')[0]!.physicalId;

describe('a re-create that fails after its provider made the resource (spec 001, edge cases)', () => {
  it('the rollback deletes what the re-create made before reporting the failure; the journal is kept', async () => {
    const request = await replaced();
    h.cloud.madeThenFail.add('create:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    const made = recreatedId();
    expect(h.cloud.live.has(made)).toBe(false);
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual([made]);
    // Create-first: the new copy is untouched and still what state names.
    expect(h.cloud.live.has('res-new')).toBe(true);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('res-new');
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'failed', message: expect.stringContaining(`after it made ${made}`) },
    ]);
    expect(h.rollbackEvents('Queue')[0]!.message).toContain('what it made was deleted');
    expect((await h.journal(request))!.segments[0]!.operations.map((op) => op.logicalId)).toEqual(['Queue']);
  });

  it.each(['Retain', 'Snapshot'])(
    "unless the old resource's DeletionPolicy is %s: what it made is kept and named for you to delete",
    async (policy) => {
      const request = await replaced({ oldExtra: { deletionPolicy: policy } });
      h.cloud.madeThenFail.add('create:Queue');
      const result = await h.rollback(request);
      expect(result.exitCode).toBe(1);
      const made = recreatedId();
      expect(h.cloud.live.has(made)).toBe(true);
      expect(callsOf('delete', 'Queue')).toEqual([]);
      const message = h.rollbackEvents('Queue')[0]!.message;
      expect(message).toContain(`${made} is kept by its DeletionPolicy ${policy}: delete it by hand`);
      expect(await h.journal(request)).toBeDefined();
      // Named in a warning, and durably in the events as a survivor.
      expect(h.events).toContainEqual(
        expect.objectContaining({ kind: 'warning', message: expect.stringContaining(`${made} is kept`) }),
      );
      expect(await h.stackEvents(request)).toContainEqual(
        expect.objectContaining({ status: 'ROLLBACK_RESOURCE_FAILED', logicalId: 'Queue', survivorId: made }),
      );
    },
  );

  it('one it cannot delete is named for you to delete', async () => {
    const request = await replaced();
    h.cloud.madeThenFail.add('create:Queue');
    h.cloud.failOn.add('delete:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    const made = recreatedId();
    expect(h.cloud.live.has(made)).toBe(true);
    const message = h.rollbackEvents('Queue')[0]!.message;
    expect(message).toContain(`after it made ${made}`);
    expect(message).toContain('deleting it failed too');
    expect(message).toContain('delete it by hand');
    expect(await h.journal(request)).toBeDefined();
    expect(await h.stackEvents(request)).toContainEqual(
      expect.objectContaining({ status: 'ROLLBACK_RESOURCE_FAILED', logicalId: 'Queue', survivorId: made }),
    );
  });

  it('on the delete-first order: the new copy is gone, what the re-create made is deleted, and the message says the resource is absent', async () => {
    const request = await replaced({ order: 'delete-first' });
    h.cloud.madeThenFail.add('create:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    const made = recreatedId();
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual(['res-new', made]);
    expect(h.cloud.liveIds()).toEqual([]);
    const message = h.rollbackEvents('Queue')[0]!.message;
    expect(message).toContain('the resource is absent');
    expect(message).toContain('what it made was deleted');
    expect(await h.journal(request)).toBeDefined();
  });

  it('after freeing the name the new copy held: what the re-create made is deleted, and the message says the resource is absent', async () => {
    h.cloud.uniqueQueueNames = true;
    const request = await replaced({ newName: 'shared' });
    h.cloud.madeThenFail.add('create:Queue');
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    const made = recreatedId();
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual(['res-new', made]);
    expect(h.cloud.liveIds()).toEqual([]);
    const message = h.rollbackEvents('Queue')[0]!.message;
    expect(message).toContain('held the name shared and was deleted');
    expect(message).toContain('the resource is absent');
    expect(message).toContain(`after it made ${made}`);
    expect(message).toContain('what it made was deleted');
    expect(await h.journal(request)).toBeDefined();
  });
});

describe('a replacement that changed the resource’s Type is reversed through both types', () => {
  it('the plan shows from NEW to OLD; the new-type resource is deleted and the old-type one re-created', async () => {
    const request = await replaced({ oldType: QUEUE, newType: TOPIC });
    const lines = await planOf(request);
    expect(lines).toEqual([
      `Queue (${TOPIC}): reverse-replace from ${TOPIC} to ${QUEUE} (create-first): re-create res-old, delete res-new`,
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.type}`)).toEqual([
      `create:${QUEUE}`,
      `delete:${TOPIC}`,
    ]);
    expect(callsOf('delete', 'Queue')[0]!.physicalId).toBe('res-new');
    const recreated = (await h.state(request))!.resources.Queue!;
    expect(recreated).toMatchObject({ type: QUEUE, properties: { QueueName: 'shared' } });
    expect(h.cloud.liveIds()).toEqual([recreated.physicalId]);
    expect(h.cloud.live.get(recreated.physicalId)!.type).toBe(QUEUE);
    expect(await h.journal(request)).toBeUndefined();
  });

  it('an old type with no provider is (REFUSED) with ROLLBACK_REPLACEMENT_UNROUTABLE: nothing sent, journal kept', async () => {
    // The fake cloud's registry handles every type but Custom::*.
    const request = await replaced({ oldType: 'Custom::Old', newType: TOPIC });
    const lines = await planOf(request);
    expect(lines).toEqual([
      expect.stringMatching(
        /^Queue \(AWS::SNS::Topic\): \(REFUSED\) the old type Custom::Old has no provider/,
      ),
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.calls).toEqual([]);
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'failed', message: expect.stringContaining('ROLLBACK_REPLACEMENT_UNROUTABLE') },
    ]);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('res-new');
    expect(await h.journal(request)).toBeDefined();
  });

  it('a journal that cannot name the old type is (REFUSED) and fails with the journal kept', async () => {
    const request = await replaced({ oldType: QUEUE, newType: TOPIC, withoutBefore: true });
    expect(await planOf(request)).toEqual([
      expect.stringMatching(/^Queue \(AWS::SNS::Topic\): \(REFUSED\) /),
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.has('res-new')).toBe(true);
    expect(await h.journal(request)).toBeDefined();
  });
});

// The delete-first order with a masked old value is in rollback-delete-first.test.ts; a revert
// whose read fails (failOn 'read:Queue') is in rollback-automatic.test.ts.
describe('NoEcho values are not reverted (spec 001): reversing a replacement fails the same way', () => {
  const masked = { QueueName: 'shared', Tags: [{ Key: 's', Value: '***' }] };

  it('old properties holding the mask: ROLLBACK_REDACTED_BASELINE, nothing sent, journal kept', async () => {
    const request = await replaced({ oldProperties: masked });
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(h.cloud.calls).toEqual([]);
    expect(h.cloud.live.has('res-new')).toBe(true);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe('res-new');
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'failed', message: expect.stringContaining('ROLLBACK_REDACTED_BASELINE') },
    ]);
    expect(await h.stackEvents(request)).toContainEqual(
      expect.objectContaining({ status: 'ROLLBACK_RESOURCE_FAILED', logicalId: 'Queue' }),
    );
    expect(await h.journal(request)).toBeDefined();
  });

  it('a revert whose masked property is write-only (the read answers without it) fails the same way', async () => {
    const template = (visibility: number) => ({
      Parameters: { Secret: { Type: 'String', NoEcho: true } },
      Resources: {
        Queue: {
          Type: QUEUE,
          Properties: { VisibilityTimeout: visibility, Tags: [{ Key: 's', Value: { Ref: 'Secret' } }] },
        },
        Late: { Type: TOPIC, DependsOn: 'Queue', Properties: { DisplayName: `late-${visibility}` } },
      },
    });
    const request = h.stack(template(30), { Secret: 'hunter2' });
    await (await h.engine()).deploy(request, options);
    const queueId = (await h.state(request))!.resources.Queue!.physicalId;
    h.cloud.failOn.add('update:Late');
    await expect(
      (await h.engine()).deploy(
        { ...request, template: template(60), parameters: { Secret: 'changed!' } },
        { ...options, rollback: false },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    const read = h.cloud.provider.read.bind(h.cloud.provider);
    // Tags is write-only here: the read answers without it.
    h.cloud.provider.read = async (readRequest, context) => {
      const live = await read(readRequest, context);
      if (!live || readRequest.logicalId !== 'Queue') return live;
      const properties = { ...live.properties };
      delete properties.Tags;
      return { ...live, properties };
    };
    h.cloud.calls.length = 0;
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(1);
    expect(callsOf('update', 'Queue')).toEqual([]);
    expect(h.cloud.live.get(queueId)!.properties).toMatchObject({ VisibilityTimeout: 60 });
    expect(h.rollbackEvents('Queue')).toMatchObject([
      { status: 'failed', message: expect.stringContaining('ROLLBACK_REDACTED_BASELINE') },
    ]);
    expect(await h.journal(request)).toBeDefined();
  });
});

describe('only UpdateReplacePolicy keeps the new copy; DeletionPolicy does not', () => {
  it('a new copy with DeletionPolicy: Retain and no UpdateReplacePolicy is deleted by cdkd rollback', async () => {
    const request = await replaced({ newExtra: { deletionPolicy: 'Retain' } });
    expect(await planOf(request)).toEqual([
      `Queue (${QUEUE}): reverse-replace (create-first): re-create res-old, delete res-new`,
    ]);
    const result = await h.rollback(request);
    expect(result.exitCode).toBe(0);
    expect(h.cloud.live.has('res-new')).toBe(false);
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual(['res-new']);
    const events = await h.stackEvents(request);
    expect(events.filter((event) => event.survivorId !== undefined)).toEqual([]);
    expect(events.map((event) => event.status)).not.toContain('DELETE_SKIPPED');
  });

  it('and by the automatic rollback of a failed deploy, which re-adopts the old copy', async () => {
    const template = (queueName: string, late: boolean) => ({
      Resources: {
        Queue: { Type: QUEUE, DeletionPolicy: 'Retain', Properties: { QueueName: queueName } },
        ...(late ? { Late: { Type: QUEUE, DependsOn: 'Queue' } } : {}),
      },
    });
    const request = h.stack(template('first-name', false));
    await (await h.engine()).deploy(request, options);
    const oldId = (await h.state(request))!.resources.Queue!.physicalId;
    h.cloud.failOn.add('create:Late');
    h.cloud.calls.length = 0;
    await expect(
      (await h.engine()).deploy({ ...request, template: template('second-name', true) }, options),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED', message: expect.stringContaining('Rolled back') });
    const newId = callsOf('create', 'Queue')[0]!.physicalId;
    expect(callsOf('delete', 'Queue').map((call) => call.physicalId)).toEqual([newId]);
    expect(h.cloud.liveIds()).toEqual([oldId]);
    expect((await h.state(request))!.resources.Queue!.physicalId).toBe(oldId);
    const events = await h.stackEvents(request);
    expect(events.map((event) => event.status)).not.toContain('DELETE_SKIPPED');
    expect(h.rollbackEvents('Queue')).toMatchObject([{ status: 'succeeded', warn: false }]);
  });
});

describe('spec 001, "Reversing a replacement": the Warning for a type that holds data', () => {
  const TABLE = 'AWS::DynamoDB::Table';

  it('the plan line of a re-created table warns that it starts empty, before anything is sent', async () => {
    const request = await replaced({ oldType: TABLE, newType: TABLE });
    expect(await planOf(request)).toEqual([
      `Queue (${TABLE}): reverse-replace (create-first): re-create res-old, delete res-new; warning: the replacement destroyed the old resource's data and the rollback does not recover it: the re-created resource starts empty`,
    ]);
    // The warning informs; the rollback itself is clean.
    expect((await h.rollback(request)).exitCode).toBe(0);
  });

  it('a re-created queue (no data to lose) gets no such warning', async () => {
    const request = await replaced();
    expect(await planOf(request)).toEqual([
      `Queue (${QUEUE}): reverse-replace (create-first): re-create res-old, delete res-new`,
    ]);
  });
});

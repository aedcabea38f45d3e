import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { CdkdError } from '../../src/errors.js';
import { EventLog, readEvents } from '../../src/state/event-log.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';

useSandbox();
const BUCKET = 'event-log-test';
let backend: StateBackend;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
  backend = await openStateBackend(clients, BUCKET, 'cdkd');
});

afterEach(() => {
  vi.useRealTimers();
});

const prefixOf = (stackName: string, region = 'us-east-1') => `cdkd/${stackName}/${region}/events/`;

async function snapshot(prefix: string): Promise<Map<string, string>> {
  const keys = await backend.objects.listKeys(prefix);
  const entries = await Promise.all(
    keys.map(async (key) => [key, (await backend.objects.get(key))?.etag ?? ''] as const),
  );
  return new Map(entries);
}

describe('EventLog', () => {
  it("appends each run's flush as one new object, read back in order, overwriting nothing", async () => {
    const stack = { stackName: 'Runs', region: 'us-east-1' };
    const first = new EventLog(backend.objects, 'cdkd', stack, 'run-1');
    first.record({ status: 'CREATE_COMPLETE', logicalId: 'Queue', resourceType: 'AWS::SQS::Queue' });
    first.record({ status: 'CREATE_FAILED', logicalId: 'Topic', reason: 'boom' });
    await first.flush();
    const afterFirst = await snapshot(prefixOf('Runs'));
    expect(afterFirst.size).toBe(1);

    const second = new EventLog(backend.objects, 'cdkd', stack, 'run-2');
    second.record({
      status: 'ROLLBACK_RESOURCE_SUCCEEDED',
      logicalId: 'Bucket',
      survivorId: 'bucket-new-copy',
      managedBy: 'sdk',
      reason: 'kept by UpdateReplacePolicy: Retain',
    });
    await second.flush();
    const afterSecond = await snapshot(prefixOf('Runs'));
    expect(afterSecond.size).toBe(2);
    for (const [key, etag] of afterFirst) expect(afterSecond.get(key)).toBe(etag);
    const keys = [...afterSecond.keys()].sort();
    expect(keys[0]).toMatch(/^cdkd\/Runs\/us-east-1\/events\/\d{8}T\d{6}\.\d{3}Z-run-1-000000\.json$/);
    expect(keys[1]).toMatch(/-run-2-000000\.json$/);

    const events = await readEvents(backend.objects, 'cdkd', stack);
    expect(events.map((event) => [event.runId, event.status, event.logicalId])).toEqual([
      ['run-1', 'CREATE_COMPLETE', 'Queue'],
      ['run-1', 'CREATE_FAILED', 'Topic'],
      ['run-2', 'ROLLBACK_RESOURCE_SUCCEEDED', 'Bucket'],
    ]);
    expect(events[2]).toMatchObject({ survivorId: 'bucket-new-copy', managedBy: 'sdk' });
    for (const event of events) expect(Number.isNaN(Date.parse(event.timestamp))).toBe(false);
  });

  it('a second flush of the same run adds another object; an empty flush writes nothing', async () => {
    const stack = { stackName: 'Flushes', region: 'us-east-1' };
    const log = new EventLog(backend.objects, 'cdkd', stack, 'run-a');
    await log.flush();
    expect(await backend.objects.listKeys(prefixOf('Flushes'))).toEqual([]);
    log.record({ status: 'UPDATE_COMPLETE', logicalId: 'A' });
    await log.flush();
    await log.flush();
    log.record({ status: 'DELETE_COMPLETE', logicalId: 'B' });
    await log.flush();
    const keys = (await backend.objects.listKeys(prefixOf('Flushes'))).sort();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/-run-a-000000\.json$/);
    expect(keys[1]).toMatch(/-run-a-000001\.json$/);
    expect((await readEvents(backend.objects, 'cdkd', stack)).map((event) => event.logicalId)).toEqual([
      'A',
      'B',
    ]);
  });

  it('never rewrites an object already at its key: it takes the next one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-04T05:06:07.089Z'));
    const stack = { stackName: 'Taken', region: 'us-east-1' };
    const taken = `${prefixOf('Taken')}20260304T050607.089Z-run-x-000000.json`;
    const foreign = JSON.stringify({
      version: 1,
      stackName: 'Taken',
      region: 'us-east-1',
      runId: 'other',
      events: [{ timestamp: '2026-03-04T05:06:07.089Z', runId: 'other', status: 'CREATE_COMPLETE' }],
    });
    const etag = await backend.objects.put(taken, foreign, { ifNoneMatch: '*' });
    const log = new EventLog(backend.objects, 'cdkd', stack, 'run-x');
    log.record({ status: 'UPDATE_COMPLETE', logicalId: 'Mine' });
    await log.flush();
    expect((await backend.objects.get(taken))?.etag).toBe(etag);
    const keys = (await backend.objects.listKeys(prefixOf('Taken'))).sort();
    expect(keys).toEqual([taken, `${prefixOf('Taken')}20260304T050607.089Z-run-x-000001.json`]);
    expect((await readEvents(backend.objects, 'cdkd', stack)).map((event) => event.runId)).toEqual([
      'other',
      'run-x',
    ]);
  });

  it('orders events by timestamp across objects, ties in write order', async () => {
    const stack = { stackName: 'Order', region: 'us-east-1' };
    const put = (name: string, runId: string, events: Array<{ timestamp: string; status: string }>) =>
      backend.objects.put(
        `${prefixOf('Order')}${name}`,
        JSON.stringify({
          version: 1,
          stackName: 'Order',
          region: 'us-east-1',
          runId,
          events: events.map((event) => ({ ...event, runId })),
        }),
        { ifNoneMatch: '*' },
      );
    await put('20260101T000000.000Z-a-000000.json', 'a', [
      { timestamp: '2026-01-01T00:00:02.000Z', status: 'A_LATE' },
      { timestamp: '2026-01-01T00:00:01.000Z', status: 'A_TIE_1' },
    ]);
    await put('20260101T000000.500Z-b-000000.json', 'b', [
      { timestamp: '2026-01-01T00:00:01.000Z', status: 'B_TIE_2' },
      { timestamp: '2026-01-01T00:00:00.000Z', status: 'B_EARLY' },
    ]);
    expect((await readEvents(backend.objects, 'cdkd', stack)).map((event) => event.status)).toEqual([
      'B_EARLY',
      'A_TIE_1',
      'B_TIE_2',
      'A_LATE',
    ]);
  });

  it('keeps the events of a failed flush buffered for the next one', async () => {
    const stack = { stackName: 'Retry', region: 'us-east-1' };
    const log = new EventLog(backend.objects, 'cdkd', stack, 'run-r');
    log.record({ status: 'CREATE_COMPLETE', logicalId: 'First' });
    const put = vi.spyOn(backend.objects, 'put').mockRejectedValueOnce(new Error('network down'));
    await expect(log.flush()).rejects.toThrow('network down');
    put.mockRestore();
    expect(log.pending).toBe(1);
    log.record({ status: 'CREATE_COMPLETE', logicalId: 'Second' });
    await log.flush();
    expect(log.pending).toBe(0);
    expect((await readEvents(backend.objects, 'cdkd', stack)).map((event) => event.logicalId)).toEqual([
      'First',
      'Second',
    ]);
  });

  it('a stack with no events reads as []', async () => {
    expect(await readEvents(backend.objects, 'cdkd', { stackName: 'Never', region: 'us-east-1' })).toEqual(
      [],
    );
  });

  it('names the key of a torn events object', async () => {
    const stack = { stackName: 'Torn', region: 'us-east-1' };
    const log = new EventLog(backend.objects, 'cdkd', stack, 'run-t');
    log.record({ status: 'CREATE_COMPLETE' });
    await log.flush();
    const key = `${prefixOf('Torn')}20260101T000000.000Z-torn-000000.json`;
    await backend.objects.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: '{"vers' }));
    const error = await readEvents(backend.objects, 'cdkd', stack).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CdkdError);
    expect(error).toMatchObject({
      code: 'STATE_DOCUMENT_INVALID',
      message: expect.stringContaining(`s3://${BUCKET}/${key}`),
    });
  });
});

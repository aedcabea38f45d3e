import {
  CloudControlClient,
  CreateResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
} from '@aws-sdk/client-cloudcontrol';
import {
  AddTagsToStreamCommand,
  CreateStreamCommand,
  DeleteStreamCommand,
  DescribeStreamCommand,
  DescribeStreamSummaryCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  IncreaseStreamRetentionPeriodCommand,
  KinesisClient,
  ListShardsCommand,
  ListStreamsCommand,
  ListTagsForStreamCommand,
  PutRecordCommand,
  PutRecordsCommand,
  type ShardIteratorType,
} from '@aws-sdk/client-kinesis';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { evenShards, hashKeyOf, shardFor } from '../../src/sandbox/services/kinesis/shards.js';
import { admin, settle } from './helpers.js';
import { ACCOUNT, clientConfig } from './lambda-runtime-helpers.js';

// Kinesis Data Streams through the AWS SDK: streams and shards, records placed by the MD5 of
// their partition key, shard iterators of every type, retention and tags, AWS's error codes,
// and AWS::Kinesis::Stream through Cloud Control.
let sandbox: Sandbox;
let kinesis: KinesisClient;
const text = (data: Uint8Array | undefined) => Buffer.from(data ?? []).toString('utf8');
const bytes = (value: string) => Buffer.from(value, 'utf8');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  kinesis = new KinesisClient(clientConfig(sandbox));
  await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
});
afterAll(async () => {
  kinesis.destroy();
  await sandbox.stop();
});

async function iterator(
  StreamName: string,
  ShardId: string,
  ShardIteratorType: ShardIteratorType,
  extra: { StartingSequenceNumber?: string; Timestamp?: Date } = {},
): Promise<string> {
  const { ShardIterator } = await kinesis.send(
    new GetShardIteratorCommand({ StreamName, ShardId, ShardIteratorType, ...extra }),
  );
  return ShardIterator!;
}

describe('shard placement', () => {
  it('splits the hash key space evenly and places a key by its MD5', () => {
    const shards = evenShards(3);
    expect(shards[0]!.startingHashKey).toBe(0n);
    expect(shards[2]!.endingHashKey).toBe((1n << 128n) - 1n);
    expect(shards[1]!.startingHashKey).toBe(shards[0]!.endingHashKey + 1n);
    const md5 = BigInt(`0x${createHash('md5').update('customer-7').digest('hex')}`);
    expect(hashKeyOf('customer-7')).toBe(md5);
    expect(shardFor(shards, md5).shardId).toBe(
      shards.find((s) => md5 >= s.startingHashKey && md5 <= s.endingHashKey)!.shardId,
    );
  });
});

describe('Kinesis Data Streams', () => {
  it('creates provisioned and on-demand streams and describes, lists and deletes them', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'orders', ShardCount: 3 }));
    await kinesis.send(
      new CreateStreamCommand({ StreamName: 'clicks', StreamModeDetails: { StreamMode: 'ON_DEMAND' } }),
    );
    const { StreamDescription } = await kinesis.send(new DescribeStreamCommand({ StreamName: 'orders' }));
    expect(StreamDescription).toMatchObject({
      StreamName: 'orders',
      StreamARN: `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/orders`,
      StreamStatus: 'ACTIVE',
      StreamModeDetails: { StreamMode: 'PROVISIONED' },
      RetentionPeriodHours: 24,
      HasMoreShards: false,
    });
    expect(StreamDescription!.Shards!.map((s) => s.ShardId)).toEqual([
      'shardId-000000000000',
      'shardId-000000000001',
      'shardId-000000000002',
    ]);
    expect(StreamDescription!.Shards![2]!.HashKeyRange!.EndingHashKey).toBe(((1n << 128n) - 1n).toString());
    const { StreamDescriptionSummary } = await kinesis.send(
      new DescribeStreamSummaryCommand({ StreamARN: `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/clicks` }),
    );
    expect(StreamDescriptionSummary).toMatchObject({
      StreamModeDetails: { StreamMode: 'ON_DEMAND' },
      OpenShardCount: 4,
    });
    expect((await kinesis.send(new ListShardsCommand({ StreamName: 'clicks' }))).Shards).toHaveLength(4);
    const listed = await kinesis.send(new ListStreamsCommand({}));
    expect(listed.StreamNames).toEqual(['clicks', 'orders']);
    expect(listed.StreamSummaries!.map((s) => s.StreamARN)).toContain(StreamDescription!.StreamARN);

    await expect(
      kinesis.send(new CreateStreamCommand({ StreamName: 'orders', ShardCount: 1 })),
    ).rejects.toMatchObject({
      name: 'ResourceInUseException',
    });
    await expect(kinesis.send(new CreateStreamCommand({ StreamName: 'no-shards' }))).rejects.toMatchObject({
      name: 'InvalidArgumentException',
    });
    await kinesis.send(new DeleteStreamCommand({ StreamName: 'clicks' }));
    await expect(kinesis.send(new DescribeStreamCommand({ StreamName: 'clicks' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: `Stream clicks under account ${ACCOUNT} not found.`,
    });
  });

  it('puts records on the shard their partition key hashes to and reads them by every iterator type', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'events', ShardCount: 2 }));
    const { Shards } = await kinesis.send(new ListShardsCommand({ StreamName: 'events' }));
    const ranges = Shards!.map((s) => ({
      shardId: s.ShardId!,
      startingHashKey: BigInt(s.HashKeyRange!.StartingHashKey!),
      endingHashKey: BigInt(s.HashKeyRange!.EndingHashKey!),
    }));
    const first = await kinesis.send(
      new PutRecordCommand({ StreamName: 'events', PartitionKey: 'user-1', Data: bytes('one') }),
    );
    expect(first.ShardId).toBe(shardFor(ranges, hashKeyOf('user-1')).shardId);
    const batch = await kinesis.send(
      new PutRecordsCommand({
        StreamName: 'events',
        Records: ['two', 'three', 'four'].map((value) => ({ PartitionKey: 'user-1', Data: bytes(value) })),
      }),
    );
    expect(batch.FailedRecordCount).toBe(0);
    expect(batch.Records!.every((r) => r.ShardId === first.ShardId)).toBe(true);
    const sequences = [first.SequenceNumber!, ...batch.Records!.map((r) => r.SequenceNumber!)];
    expect(sequences.map(BigInt)).toEqual([...sequences.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)));

    const shard = first.ShardId!;
    const horizon = await kinesis.send(
      new GetRecordsCommand({ ShardIterator: await iterator('events', shard, 'TRIM_HORIZON'), Limit: 2 }),
    );
    expect(horizon.Records!.map((r) => text(r.Data))).toEqual(['one', 'two']);
    expect(horizon.Records![0]).toMatchObject({ PartitionKey: 'user-1', SequenceNumber: sequences[0] });
    expect(horizon.MillisBehindLatest).toBeGreaterThanOrEqual(0);
    const rest = await kinesis.send(new GetRecordsCommand({ ShardIterator: horizon.NextShardIterator }));
    expect(rest.Records!.map((r) => text(r.Data))).toEqual(['three', 'four']);
    expect(rest.MillisBehindLatest).toBe(0);

    const at = await iterator('events', shard, 'AT_SEQUENCE_NUMBER', {
      StartingSequenceNumber: sequences[1],
    });
    expect(
      (await kinesis.send(new GetRecordsCommand({ ShardIterator: at }))).Records!.map((r) => text(r.Data)),
    ).toEqual(['two', 'three', 'four']);
    const after = await iterator('events', shard, 'AFTER_SEQUENCE_NUMBER', {
      StartingSequenceNumber: sequences[2],
    });
    expect(
      (await kinesis.send(new GetRecordsCommand({ ShardIterator: after }))).Records!.map((r) => text(r.Data)),
    ).toEqual(['four']);

    const latest = await iterator('events', shard, 'LATEST');
    expect((await kinesis.send(new GetRecordsCommand({ ShardIterator: latest }))).Records).toEqual([]);
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT1M' });
    const since = new Date('2030-01-01T00:00:30Z');
    await kinesis.send(
      new PutRecordCommand({ StreamName: 'events', PartitionKey: 'user-1', Data: bytes('five') }),
    );
    expect(
      (await kinesis.send(new GetRecordsCommand({ ShardIterator: latest }))).Records!.map((r) =>
        text(r.Data),
      ),
    ).toEqual(['five']);
    const timed = await iterator('events', shard, 'AT_TIMESTAMP', { Timestamp: since });
    expect(
      (await kinesis.send(new GetRecordsCommand({ ShardIterator: timed }))).Records!.map((r) => text(r.Data)),
    ).toEqual(['five']);
    const other = Shards!.find((s) => s.ShardId !== shard)!.ShardId!;
    expect(
      (
        await kinesis.send(
          new GetRecordsCommand({ ShardIterator: await iterator('events', other, 'TRIM_HORIZON') }),
        )
      ).Records,
    ).toEqual([]);
  });

  it('answers AWS error codes for bad iterators and expires an iterator after five minutes', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'audit', ShardCount: 1 }));
    await expect(
      kinesis.send(
        new GetShardIteratorCommand({
          StreamName: 'audit',
          ShardId: 'shardId-000000000009',
          ShardIteratorType: 'LATEST',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(
      kinesis.send(
        new GetShardIteratorCommand({
          StreamName: 'audit',
          ShardId: 'shardId-000000000000',
          ShardIteratorType: 'AT_SEQUENCE_NUMBER',
          StartingSequenceNumber: 'not-a-number',
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidArgumentException' });
    await expect(kinesis.send(new GetRecordsCommand({ ShardIterator: 'garbage' }))).rejects.toMatchObject({
      name: 'InvalidArgumentException',
    });
    const old = await iterator('audit', 'shardId-000000000000', 'TRIM_HORIZON');
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT6M' });
    await expect(kinesis.send(new GetRecordsCommand({ ShardIterator: old }))).rejects.toMatchObject({
      name: 'ExpiredIteratorException',
    });
    await expect(
      kinesis.send(new PutRecordCommand({ StreamName: 'missing', PartitionKey: 'k', Data: bytes('x') })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('keeps records for the retention period, which only increases through IncreaseStreamRetentionPeriod, and tags', async () => {
    await kinesis.send(new CreateStreamCommand({ StreamName: 'ledger', ShardCount: 1 }));
    await kinesis.send(
      new PutRecordCommand({ StreamName: 'ledger', PartitionKey: 'k', Data: bytes('kept') }),
    );
    await kinesis.send(
      new IncreaseStreamRetentionPeriodCommand({ StreamName: 'ledger', RetentionPeriodHours: 48 }),
    );
    await expect(
      kinesis.send(
        new IncreaseStreamRetentionPeriodCommand({ StreamName: 'ledger', RetentionPeriodHours: 24 }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidArgumentException' });
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT30H' });
    const read = async () =>
      (
        await kinesis.send(
          new GetRecordsCommand({
            ShardIterator: await iterator('ledger', 'shardId-000000000000', 'TRIM_HORIZON'),
          }),
        )
      ).Records!.map((r) => text(r.Data));
    expect(await read()).toEqual(['kept']);
    await admin(sandbox, 'PUT', 'clock', { advance: 'PT20H' });
    expect(await read()).toEqual([]);

    await kinesis.send(
      new AddTagsToStreamCommand({ StreamName: 'ledger', Tags: { team: 'billing', env: 'test' } }),
    );
    expect((await kinesis.send(new ListTagsForStreamCommand({ StreamName: 'ledger' }))).Tags).toEqual([
      { Key: 'env', Value: 'test' },
      { Key: 'team', Value: 'billing' },
    ]);
  });

  it('serves AWS::Kinesis::Stream to Cloud Control on the same store', async () => {
    const cc = new CloudControlClient(clientConfig(sandbox));
    const accepted = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::Kinesis::Stream',
        DesiredState: JSON.stringify({
          ShardCount: 2,
          StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
          DesiredShardLevelMetrics: ['IncomingBytes'],
        }),
      }),
    );
    const { event } = await settle(cc, accepted.ProgressEvent!);
    expect(event.OperationStatus).toBe('SUCCESS');
    const name = event.Identifier!;
    expect(name).toMatch(/^Stream-[A-Z0-9]{12}$/);
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::Kinesis::Stream', Identifier: name }),
    );
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({
      Name: name,
      Arn: `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/${name}`,
      ShardCount: 2,
      StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
      DesiredShardLevelMetrics: ['IncomingBytes'],
    });
    const { StreamDescription } = await kinesis.send(new DescribeStreamCommand({ StreamName: name }));
    expect(StreamDescription!.Shards).toHaveLength(2);
    expect(StreamDescription).toMatchObject({ EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' });
    const put = await kinesis.send(
      new PutRecordCommand({ StreamName: name, PartitionKey: 'k', Data: bytes('x') }),
    );
    expect(put.EncryptionType).toBe('KMS');
    const updated = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::Kinesis::Stream',
        Identifier: name,
        PatchDocument: JSON.stringify([{ op: 'add', path: '/RetentionPeriodHours', value: 72 }]),
      }),
    );
    expect((await settle(cc, updated.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    const summary = await kinesis.send(new DescribeStreamSummaryCommand({ StreamName: name }));
    expect(summary.StreamDescriptionSummary!.RetentionPeriodHours).toBe(72);
    const { json: inventory } = await admin(sandbox, 'GET', 'inventory');
    expect(inventory.kinesis['AWS::Kinesis::Stream']).toContainEqual(
      expect.objectContaining({ id: name, mode: 'PROVISIONED', shards: 2 }),
    );
    cc.destroy();
  });
});

describe('Kinesis persistence', () => {
  it('keeps streams and their records across a restart on the same data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kinesis-'));
    try {
      const first = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      const client = new KinesisClient(clientConfig(first));
      await client.send(new CreateStreamCommand({ StreamName: 'kept', ShardCount: 1 }));
      await client.send(
        new PutRecordCommand({ StreamName: 'kept', PartitionKey: 'k', Data: bytes('saved') }),
      );
      client.destroy();
      await first.stop();
      const second = await startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
      const again = new KinesisClient(clientConfig(second));
      const { ShardIterator } = await again.send(
        new GetShardIteratorCommand({
          StreamName: 'kept',
          ShardId: 'shardId-000000000000',
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      const { Records } = await again.send(new GetRecordsCommand({ ShardIterator }));
      expect(Records!.map((r) => text(r.Data))).toEqual(['saved']);
      again.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

import { SandboxError } from '../../errors.js';
import type { ApiCall } from '../api-module.js';
import { explicitHashKey, hashKeyOf, sequenceCounter, shardFor } from './shards.js';
import { encryptionType, type KinesisRecord, type KinesisStore, type StreamDocument } from './store.js';
import { integerIn, invalidArgument } from './stream-ops.js';

/** How long a shard iterator stays valid (Kinesis: 5 minutes). */
const ITERATOR_LIFETIME_MS = 300_000;
const MAX_DATA_BYTES = 1024 * 1024;

/** What a shard iterator carries: the shard and the first record counter it reads from. */
interface Iterator {
  arn: string;
  shardId: string;
  from: string;
  issuedAt: number;
}

const encodeIterator = (iterator: Iterator): string =>
  Buffer.from(JSON.stringify(iterator)).toString('base64');

function decodeIterator(text: unknown): Iterator {
  try {
    const iterator = JSON.parse(Buffer.from(String(text), 'base64').toString('utf8')) as Iterator;
    if (typeof iterator.arn === 'string' && typeof iterator.from === 'string') return iterator;
  } catch {
    // answered below
  }
  throw invalidArgument(`Invalid ShardIterator: ${String(text)}`);
}

/** The record entry PutRecord(s) takes, checked and placed on its shard. */
function placed(stream: StreamDocument, entry: Record<string, unknown>) {
  const partitionKey = entry.PartitionKey;
  if (typeof partitionKey !== 'string' || partitionKey.length < 1 || partitionKey.length > 256) {
    throw new SandboxError(
      'ValidationException',
      "1 validation error detected: Value at 'partitionKey' failed to satisfy constraint: Member must have length between 1 and 256",
      400,
    );
  }
  if (typeof entry.Data !== 'string' || Buffer.from(entry.Data, 'base64').length > MAX_DATA_BYTES) {
    throw new SandboxError(
      'ValidationException',
      "1 validation error detected: Value at 'data' failed to satisfy constraint: Member must have length less than or equal to 1048576",
      400,
    );
  }
  let hashKey = hashKeyOf(partitionKey);
  if (entry.ExplicitHashKey !== undefined) {
    const explicit = explicitHashKey(String(entry.ExplicitHashKey));
    if (explicit === undefined) {
      throw invalidArgument(
        `Invalid ExplicitHashKey. ExplicitHashKey must be in the range: [0, 2^128-1]. Specified value was ${String(entry.ExplicitHashKey)}`,
      );
    }
    hashKey = explicit;
  }
  const shards = stream.shards.map((shard) => ({
    shardId: shard.shardId,
    startingHashKey: BigInt(shard.startingHashKey),
    endingHashKey: BigInt(shard.endingHashKey),
  }));
  return { shardId: shardFor(shards, hashKey).shardId, partitionKey, data: entry.Data };
}

const counterOf = (record: KinesisRecord): bigint => sequenceCounter(record.sequenceNumber)!;

/** The data plane: writing records and reading them back by shard iterator. */
export function recordOps(store: KinesisStore, now: () => number) {
  const find = (call: ApiCall) => store.require(call.accountId, call.region, call.input);
  return {
    async PutRecord(call: ApiCall) {
      const stream = find(call);
      const [written] = await store.append(stream, [placed(stream, call.input)]);
      return {
        ShardId: written!.shardId,
        SequenceNumber: written!.sequenceNumber,
        EncryptionType: encryptionType(stream),
      };
    },
    async PutRecords(call: ApiCall) {
      const stream = find(call);
      const entries = call.input.Records;
      if (!Array.isArray(entries) || entries.length < 1 || entries.length > 500) {
        throw new SandboxError(
          'ValidationException',
          "1 validation error detected: Value at 'records' failed to satisfy constraint: Member must have length between 1 and 500",
          400,
        );
      }
      const written = await store.append(
        stream,
        entries.map((entry) => placed(stream, entry as Record<string, unknown>)),
      );
      return {
        FailedRecordCount: 0,
        Records: written.map((record) => ({
          SequenceNumber: record.sequenceNumber,
          ShardId: record.shardId,
        })),
        EncryptionType: encryptionType(stream),
      };
    },
    GetShardIterator(call: ApiCall) {
      const stream = find(call);
      const shardId = call.input.ShardId;
      const shard = stream.shards.find((candidate) => candidate.shardId === shardId);
      if (!shard) {
        throw new SandboxError(
          'ResourceNotFoundException',
          `Shard ${String(shardId)} in stream ${stream.name} under account ${stream.accountId} does not exist`,
          400,
        );
      }
      const from = startOf(stream, shard.shardId, call.input);
      return {
        ShardIterator: encodeIterator({
          arn: stream.arn,
          shardId: shard.shardId,
          from: from.toString(),
          issuedAt: now(),
        }),
      };
    },
    GetRecords(call: ApiCall) {
      const iterator = decodeIterator(call.input.ShardIterator);
      const limit = call.input.Limit === undefined ? 10_000 : integerIn(call.input.Limit, 'Limit', 1, 10_000);
      const at = now();
      if (at - iterator.issuedAt > ITERATOR_LIFETIME_MS) {
        throw new SandboxError(
          'ExpiredIteratorException',
          `Iterator expired. The iterator was created at time ${new Date(iterator.issuedAt).toUTCString()} while right now it is ${new Date(at).toUTCString()} which is further in the future than the tolerated delay of ${ITERATOR_LIFETIME_MS} milliseconds.`,
          400,
        );
      }
      const stream = store.byArn(iterator.arn);
      if (!stream)
        throw new SandboxError('ResourceNotFoundException', `Stream ${iterator.arn} not found.`, 400);
      const from = BigInt(iterator.from);
      const pending = stream.records.filter(
        (record) => record.shardId === iterator.shardId && counterOf(record) >= from,
      );
      const page = pending.slice(0, limit);
      const next = page.length > 0 ? counterOf(page[page.length - 1]!) + 1n : from;
      const behind = pending[page.length];
      return {
        Records: page.map((record) => ({
          SequenceNumber: record.sequenceNumber,
          ApproximateArrivalTimestamp: record.arrivedAt / 1000,
          Data: record.data,
          PartitionKey: record.partitionKey,
        })),
        NextShardIterator: encodeIterator({ ...iterator, from: next.toString(), issuedAt: at }),
        MillisBehindLatest: behind ? Math.max(0, at - behind.arrivedAt) : 0,
      };
    },
  };
}

/** The first record counter an iterator of this type reads (records at or after it). */
function startOf(stream: StreamDocument, shardId: string, input: Record<string, unknown>): bigint {
  const type = input.ShardIteratorType;
  const sequence = (): bigint => {
    const counter =
      typeof input.StartingSequenceNumber === 'string'
        ? sequenceCounter(input.StartingSequenceNumber)
        : undefined;
    const record = stream.records.find(
      (candidate) => candidate.sequenceNumber === input.StartingSequenceNumber,
    );
    if (counter === undefined || (record !== undefined && record.shardId !== shardId)) {
      throw invalidArgument(
        `StartingSequenceNumber ${String(input.StartingSequenceNumber)} used in GetShardIterator on shard ${shardId} in stream ${stream.name} under account ${stream.accountId} is invalid.`,
      );
    }
    return counter;
  };
  switch (type) {
    case 'TRIM_HORIZON':
      return 0n;
    case 'LATEST':
      return BigInt(stream.nextCounter);
    case 'AT_SEQUENCE_NUMBER':
      return sequence();
    case 'AFTER_SEQUENCE_NUMBER':
      return sequence() + 1n;
    case 'AT_TIMESTAMP': {
      const timestamp = input.Timestamp;
      if (typeof timestamp !== 'number' && typeof timestamp !== 'string') {
        throw invalidArgument('Timestamp is required for ShardIteratorType AT_TIMESTAMP.');
      }
      const ms = typeof timestamp === 'number' ? timestamp * 1000 : Date.parse(timestamp);
      const first = stream.records.find((record) => record.shardId === shardId && record.arrivedAt >= ms);
      return first ? counterOf(first) : BigInt(stream.nextCounter);
    }
    default:
      throw new SandboxError(
        'ValidationException',
        `1 validation error detected: Value '${String(type)}' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, AT_SEQUENCE_NUMBER, AT_TIMESTAMP, TRIM_HORIZON, LATEST]`,
        400,
      );
  }
}

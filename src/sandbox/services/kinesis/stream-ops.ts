import { SandboxError } from '../../errors.js';
import type { ApiCall } from '../api-module.js';
import { encryptionType, ON_DEMAND_SHARDS, type KinesisStore, type StreamDocument } from './store.js';

const NAME = /^[a-zA-Z0-9_.-]{1,128}$/;
const MAX_RETENTION_HOURS = 8760;

export function invalidArgument(message: string): SandboxError {
  return new SandboxError('InvalidArgumentException', message, 400);
}

/** A member that must be a positive integer within bounds (numbers may arrive as strings from a template). */
export function integerIn(value: unknown, name: string, min: number, max: number): number {
  const number = typeof value === 'string' && value !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw invalidArgument(`${name} must be an integer between ${min} and ${max}; got ${String(value)}.`);
  }
  return number;
}

/** CreateStream's settings, checked as Kinesis checks them; also what Cloud Control creates from. */
export function streamSettings(input: Record<string, unknown>): {
  name: string;
  mode: StreamDocument['mode'];
  shardCount: number;
} {
  const name = input.StreamName;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new SandboxError(
      'ValidationException',
      `1 validation error detected: Value '${String(name)}' at 'streamName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+ and have length between 1 and 128`,
      400,
    );
  }
  const mode = (input.StreamModeDetails as { StreamMode?: string } | undefined)?.StreamMode ?? 'PROVISIONED';
  if (mode !== 'ON_DEMAND' && mode !== 'PROVISIONED') {
    throw invalidArgument(`StreamMode must be ON_DEMAND or PROVISIONED; got ${mode}.`);
  }
  if (mode === 'ON_DEMAND') return { name, mode, shardCount: ON_DEMAND_SHARDS };
  if (input.ShardCount === undefined) {
    throw invalidArgument('ShardCount is required for a stream in PROVISIONED mode.');
  }
  return { name, mode, shardCount: integerIn(input.ShardCount, 'ShardCount', 1, 1000) };
}

const seconds = (ms: number) => ms / 1000;

function shardsOf(stream: StreamDocument) {
  return stream.shards.map((shard) => ({
    ShardId: shard.shardId,
    HashKeyRange: { StartingHashKey: shard.startingHashKey, EndingHashKey: shard.endingHashKey },
    SequenceNumberRange: { StartingSequenceNumber: shard.startingSequenceNumber },
  }));
}

function common(stream: StreamDocument) {
  return {
    StreamName: stream.name,
    StreamARN: stream.arn,
    StreamStatus: 'ACTIVE',
    StreamModeDetails: { StreamMode: stream.mode },
    RetentionPeriodHours: stream.retentionHours,
    StreamCreationTimestamp: seconds(stream.createdAt),
    EnhancedMonitoring: [{ ShardLevelMetrics: [] }],
    EncryptionType: encryptionType(stream),
    ...(stream.encryption ? { KeyId: stream.encryption.KeyId } : {}),
  };
}

function tagMap(tags: unknown): Record<string, string> {
  if (tags === undefined) return {};
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) {
    throw invalidArgument('Tags must be a map of keys to values.');
  }
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key, String(value)]));
}

/** Changes the retention period in the direction the operation allows (the other way is InvalidArgumentException). */
async function setRetention(
  store: KinesisStore,
  stream: StreamDocument,
  input: Record<string, unknown>,
  way: 'increase' | 'decrease',
): Promise<Record<string, never>> {
  const hours = integerIn(input.RetentionPeriodHours, 'RetentionPeriodHours', 24, MAX_RETENTION_HOURS);
  if (way === 'increase' ? hours < stream.retentionHours : hours > stream.retentionHours) {
    const [relation, other] = way === 'increase' ? ['shorter', 'Decrease'] : ['longer', 'Increase'];
    throw invalidArgument(
      `Requested retention period (${hours} hours) for stream ${stream.name} can not be ${relation} than existing retention period (${stream.retentionHours} hours). Use ${other}RetentionPeriod API.`,
    );
  }
  stream.retentionHours = hours;
  await store.save(stream);
  return {};
}

/** The stream operations (control plane) over the store, as the module's handlers. */
export function streamOps(store: KinesisStore) {
  const scope = (call: ApiCall) => ({ accountId: call.accountId, region: call.region });
  const find = (call: ApiCall) => store.require(call.accountId, call.region, call.input);
  return {
    async CreateStream(call: ApiCall) {
      const settings = streamSettings(call.input);
      await store.create(scope(call), settings.name, { ...settings, tags: tagMap(call.input.Tags) });
      return {};
    },
    DescribeStream(call: ApiCall) {
      const stream = find(call);
      return { StreamDescription: { ...common(stream), Shards: shardsOf(stream), HasMoreShards: false } };
    },
    DescribeStreamSummary(call: ApiCall) {
      const stream = find(call);
      return {
        StreamDescriptionSummary: {
          ...common(stream),
          OpenShardCount: stream.shards.length,
          ConsumerCount: 0,
        },
      };
    },
    ListStreams(call: ApiCall) {
      const limit = call.input.Limit === undefined ? 100 : integerIn(call.input.Limit, 'Limit', 1, 10000);
      const after =
        typeof call.input.ExclusiveStartStreamName === 'string' ? call.input.ExclusiveStartStreamName : '';
      const streams = store.list(call.accountId, call.region).filter((stream) => stream.name > after);
      const page = streams.slice(0, limit);
      return {
        StreamNames: page.map((stream) => stream.name),
        HasMoreStreams: streams.length > limit,
        StreamSummaries: page.map((stream) => ({
          StreamName: stream.name,
          StreamARN: stream.arn,
          StreamStatus: 'ACTIVE',
          StreamModeDetails: { StreamMode: stream.mode },
          StreamCreationTimestamp: seconds(stream.createdAt),
        })),
      };
    },
    ListShards(call: ApiCall) {
      return { Shards: shardsOf(find(call)) };
    },
    async DeleteStream(call: ApiCall) {
      await store.delete(find(call));
      return {};
    },
    async AddTagsToStream(call: ApiCall) {
      const stream = find(call);
      stream.tags = { ...stream.tags, ...tagMap(call.input.Tags) };
      await store.save(stream);
      return {};
    },
    async RemoveTagsFromStream(call: ApiCall) {
      const stream = find(call);
      const keys = Array.isArray(call.input.TagKeys) ? call.input.TagKeys.map(String) : [];
      stream.tags = Object.fromEntries(Object.entries(stream.tags).filter(([key]) => !keys.includes(key)));
      await store.save(stream);
      return {};
    },
    ListTagsForStream(call: ApiCall) {
      const stream = find(call);
      return {
        Tags: Object.entries(stream.tags)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([Key, Value]) => ({ Key, Value })),
        HasMoreTags: false,
      };
    },
    IncreaseStreamRetentionPeriod: (call: ApiCall) => setRetention(store, find(call), call.input, 'increase'),
    DecreaseStreamRetentionPeriod: (call: ApiCall) => setRetention(store, find(call), call.input, 'decrease'),
  };
}

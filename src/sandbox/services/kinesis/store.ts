import { SandboxError } from '../../errors.js';
import type { StreamReader, StreamRecordEntry } from '../../ports/index.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { Storage } from '../../storage/storage.js';
import { evenShards, sequenceNumber } from './shards.js';

/** Records kept per stream at most, whatever the retention period (the sandbox's memory). */
const KEPT = 10_000;
/** The shards an on-demand stream starts with. */
export const ON_DEMAND_SHARDS = 4;
export const DEFAULT_RETENTION_HOURS = 24;

export interface ShardDocument {
  shardId: string;
  /** Decimal strings (bigints do not serialize). */
  startingHashKey: string;
  endingHashKey: string;
  startingSequenceNumber: string;
}

export interface KinesisRecord {
  sequenceNumber: string;
  shardId: string;
  partitionKey: string;
  /** Base64, as the API carries it. */
  data: string;
  /** Epoch ms, sandbox time. */
  arrivedAt: number;
}

export interface StreamDocument {
  accountId: string;
  region: string;
  name: string;
  arn: string;
  mode: 'ON_DEMAND' | 'PROVISIONED';
  shards: ShardDocument[];
  retentionHours: number;
  /** Epoch ms. */
  createdAt: number;
  tags: Record<string, string>;
  /** Server-side encryption (StreamEncryption); records are kept as written either way. */
  encryption?: { EncryptionType: 'KMS'; KeyId: string };
  /** Template settings the sandbox keeps but does not act on (DesiredShardLevelMetrics ...), read back as set. */
  kept?: Record<string, unknown>;
  /** The next record's counter (decimal string). */
  nextCounter: string;
  records: KinesisRecord[];
}

/** What a stream's reads and writes report as their EncryptionType. */
export const encryptionType = (stream: StreamDocument): string => stream.encryption?.EncryptionType ?? 'NONE';

export const streamArn = (accountId: string, region: string, name: string): string =>
  `arn:aws:kinesis:${region}:${accountId}:stream/${name}`;

export function notFound(name: string, accountId: string): SandboxError {
  return new SandboxError(
    'ResourceNotFoundException',
    `Stream ${name} under account ${accountId} not found.`,
    400,
  );
}

/** Kinesis streams and their records, one document per stream written through to storage. */
export class KinesisStore implements StreamReader {
  private constructor(
    private readonly docs: DocumentMap<StreamDocument>,
    private readonly now: () => number,
  ) {}

  static async load(storage: Storage, now: () => number): Promise<KinesisStore> {
    return new KinesisStore(await DocumentMap.load<StreamDocument>(storage, 'kinesis/streams'), now);
  }

  byArn(arn: string): StreamDocument | undefined {
    const stream = this.docs.get(encodeURIComponent(arn));
    if (stream) this.trim(stream);
    return stream;
  }

  get(accountId: string, region: string, name: string): StreamDocument | undefined {
    return this.byArn(streamArn(accountId, region, name));
  }

  /** The stream a call names by StreamName or StreamARN, or ResourceNotFoundException. */
  require(accountId: string, region: string, input: Record<string, unknown>): StreamDocument {
    const arn =
      typeof input.StreamARN === 'string'
        ? input.StreamARN
        : typeof input.StreamName === 'string'
          ? streamArn(accountId, region, input.StreamName)
          : undefined;
    if (arn === undefined) {
      throw new SandboxError(
        'InvalidArgumentException',
        'Either StreamName or StreamARN should be provided.',
        400,
      );
    }
    const stream = this.byArn(arn);
    if (!stream) throw notFound(arn.slice(arn.indexOf('/') + 1), accountId);
    return stream;
  }

  list(accountId: string, region: string): StreamDocument[] {
    return this.docs
      .values()
      .filter((stream) => stream.accountId === accountId && stream.region === region)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  all(): StreamDocument[] {
    return this.docs.values();
  }

  async create(
    scope: { accountId: string; region: string },
    name: string,
    options: {
      mode: StreamDocument['mode'];
      shardCount: number;
      retentionHours?: number;
      tags?: Record<string, string>;
    } & Pick<StreamDocument, 'encryption' | 'kept'>,
  ): Promise<StreamDocument> {
    if (this.get(scope.accountId, scope.region, name)) {
      throw new SandboxError(
        'ResourceInUseException',
        `Stream ${name} under account ${scope.accountId} already exists.`,
        400,
      );
    }
    const stream: StreamDocument = {
      ...scope,
      name,
      arn: streamArn(scope.accountId, scope.region, name),
      mode: options.mode,
      shards: evenShards(options.shardCount).map((shard) => ({
        shardId: shard.shardId,
        startingHashKey: shard.startingHashKey.toString(),
        endingHashKey: shard.endingHashKey.toString(),
        startingSequenceNumber: sequenceNumber(0n),
      })),
      retentionHours: options.retentionHours ?? DEFAULT_RETENTION_HOURS,
      createdAt: this.now(),
      tags: options.tags ?? {},
      ...(options.encryption ? { encryption: options.encryption } : {}),
      ...(options.kept ? { kept: options.kept } : {}),
      nextCounter: '1',
      records: [],
    };
    await this.save(stream);
    return stream;
  }

  save(stream: StreamDocument): Promise<void> {
    return this.docs.put(encodeURIComponent(stream.arn), stream);
  }

  delete(stream: StreamDocument): Promise<void> {
    return this.docs.delete(encodeURIComponent(stream.arn));
  }

  /** Appends records (already assigned to shards) and saves once; answers their sequence numbers. */
  async append(
    stream: StreamDocument,
    entries: ReadonlyArray<{ shardId: string; partitionKey: string; data: string }>,
  ): Promise<KinesisRecord[]> {
    const arrivedAt = this.now();
    let counter = BigInt(stream.nextCounter);
    const written = entries.map((entry) => ({
      ...entry,
      sequenceNumber: sequenceNumber(counter++),
      arrivedAt,
    }));
    stream.nextCounter = counter.toString();
    stream.records.push(...written);
    if (stream.records.length > KEPT) stream.records.splice(0, stream.records.length - KEPT);
    await this.save(stream);
    return written;
  }

  /** Drops records older than the retention period, on the sandbox's clock. */
  private trim(stream: StreamDocument): void {
    const oldest = this.now() - stream.retentionHours * 3_600_000;
    const expired = stream.records.findIndex((record) => record.arrivedAt >= oldest);
    if (expired > 0) stream.records.splice(0, expired);
    else if (expired === -1) stream.records.length = 0;
  }

  read(arn: string, after: string | undefined, limit: number): StreamRecordEntry[] | undefined {
    const stream = this.byArn(arn);
    if (!stream) return undefined;
    const from = after === undefined ? -1n : BigInt(after);
    return stream.records
      .filter((record) => BigInt(record.sequenceNumber) > from)
      .slice(0, limit)
      .map((record) => ({
        sequenceNumber: record.sequenceNumber,
        arrivedAt: record.arrivedAt,
        shardId: record.shardId,
        record: lambdaRecord(stream, record),
      }));
  }

  latest(arn: string): string | undefined {
    const stream = this.byArn(arn);
    if (!stream) return undefined;
    const last = BigInt(stream.nextCounter) - 1n;
    return last === 0n ? '0' : sequenceNumber(last);
  }
}

/** A record as Lambda's Kinesis event carries it (less eventSourceARN, which the poller adds). */
function lambdaRecord(stream: StreamDocument, record: KinesisRecord): Record<string, unknown> {
  return {
    kinesis: {
      kinesisSchemaVersion: '1.0',
      partitionKey: record.partitionKey,
      sequenceNumber: record.sequenceNumber,
      data: record.data,
      approximateArrivalTimestamp: record.arrivedAt / 1000,
    },
    eventSource: 'aws:kinesis',
    eventVersion: '1.0',
    eventID: `${record.shardId}:${record.sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    awsRegion: stream.region,
  };
}

import { SandboxError } from '../../errors.js';
import type { StreamReader } from '../../ports/index.js';
import type { ExtrasStore } from './extras.js';
import { SHARD_ID, type StreamDocument, type StreamStore } from './stream-store.js';

type Json = Record<string, unknown>;

export const STREAMS_TARGET_PREFIX = 'DynamoDBStreams_20120810';

/**
 * The streams of tables with a StreamSpecification: opened on first use from the table's
 * settings, so a reader starting at LATEST before any write sees the first write.
 */
export function tableStreams(
  streams: StreamStore,
  extras: ExtrasStore,
): StreamReader & {
  find(arn: string): StreamDocument | undefined;
} {
  const find = (arn: string): StreamDocument | undefined => {
    const existing = streams.get(arn);
    if (existing) return existing;
    const table = extras.all().find((entry) => entry.stream?.LatestStreamArn === arn);
    if (!table?.stream) return undefined;
    return streams.open(arn, table.region, table.tableName, table.stream.StreamViewType);
  };
  return {
    find,
    read: (arn, after, limit) => (find(arn) ? streams.read(arn, after, limit) : undefined),
    latest: (arn) => (find(arn) ? streams.latest(arn) : undefined),
  };
}

/** The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords), one shard per stream. */
export function streamsOperation(
  operation: string,
  input: Json,
  region: string,
  streams: StreamStore,
  reader: ReturnType<typeof tableStreams>,
  extras: ExtrasStore,
): Json {
  switch (operation) {
    case 'ListStreams': {
      const table = typeof input.TableName === 'string' ? input.TableName : undefined;
      const listed = extras
        .all()
        .filter(
          (entry) =>
            entry.region === region && entry.stream && (table === undefined || entry.tableName === table),
        );
      return {
        Streams: listed.map((entry) => ({
          StreamArn: entry.stream!.LatestStreamArn,
          TableName: entry.tableName,
          StreamLabel: entry.stream!.LatestStreamLabel,
        })),
      };
    }
    case 'DescribeStream': {
      const stream = requireStream(reader, input.StreamArn);
      return {
        StreamDescription: {
          StreamArn: stream.arn,
          StreamLabel: stream.arn.split('/stream/')[1],
          StreamStatus: 'ENABLED',
          StreamViewType: stream.viewType,
          TableName: stream.tableName,
          Shards: [
            {
              ShardId: SHARD_ID,
              SequenceNumberRange: {
                StartingSequenceNumber: stream.records[0]?.sequenceNumber ?? '000000000000000000001',
              },
            },
          ],
        },
      };
    }
    case 'GetShardIterator': {
      const stream = requireStream(reader, input.StreamArn);
      const type = String(input.ShardIteratorType ?? '');
      const sequence = typeof input.SequenceNumber === 'string' ? BigInt(input.SequenceNumber) : undefined;
      const after =
        type === 'TRIM_HORIZON'
          ? '0'
          : type === 'LATEST'
            ? streams.latest(stream.arn)!
            : type === 'AT_SEQUENCE_NUMBER' && sequence !== undefined
              ? String(sequence - 1n)
              : type === 'AFTER_SEQUENCE_NUMBER' && sequence !== undefined
                ? String(sequence)
                : undefined;
      if (after === undefined) {
        throw new SandboxError(
          'ValidationException',
          `Invalid ShardIteratorType or SequenceNumber: ${type}`,
          400,
        );
      }
      return { ShardIterator: iterator(stream.arn, after) };
    }
    case 'GetRecords': {
      const position = readIterator(input.ShardIterator);
      const limit = Math.min(Number(input.Limit ?? 1000), 1000);
      const entries = reader.read(position.arn, position.after, limit) ?? [];
      const last = entries[entries.length - 1]?.sequenceNumber ?? position.after;
      return {
        Records: entries.map((entry) => ({ ...entry.record })),
        NextShardIterator: iterator(position.arn, last),
      };
    }
    default:
      throw new SandboxError('UnknownOperationException', `Unknown operation ${operation}`, 400);
  }
}

function requireStream(reader: ReturnType<typeof tableStreams>, arn: unknown): StreamDocument {
  const stream = typeof arn === 'string' ? reader.find(arn) : undefined;
  if (!stream) {
    throw new SandboxError(
      'ResourceNotFoundException',
      `Requested resource not found: Stream: ${String(arn)} not found`,
      400,
    );
  }
  return stream;
}

function iterator(arn: string, after: string): string {
  return Buffer.from(JSON.stringify({ arn, after })).toString('base64');
}

function readIterator(value: unknown): { arn: string; after: string } {
  try {
    const parsed = JSON.parse(Buffer.from(String(value), 'base64').toString('utf8')) as {
      arn?: unknown;
      after?: unknown;
    };
    if (typeof parsed.arn === 'string' && typeof parsed.after === 'string')
      return { arn: parsed.arn, after: parsed.after };
  } catch {
    // Falls through to DynamoDB's answer for an iterator it did not issue.
  }
  throw new SandboxError('ValidationException', 'Invalid ShardIterator', 400);
}

import type { StreamReader, StreamRecordEntry } from '../../ports/index.js';
import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'dynamodb/streams';
/** Records kept per stream (DynamoDB keeps 24 hours; the sandbox the latest this many). */
const KEPT = 10_000;
export const SHARD_ID = 'shardId-00000000000000000001-00000001';

type Image = Record<string, unknown>;

export interface StreamDocument {
  arn: string;
  region: string;
  tableName: string;
  viewType: string;
  nextSequence: number;
  records: StreamRecordEntry[];
}

/** Stream records per stream ARN, written through to storage. */
export class StreamStore implements StreamReader {
  private readonly streams = new Map<string, StreamDocument>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<StreamStore> {
    const store = new StreamStore(storage);
    for (const { doc } of await storage.listDocuments<StreamDocument>(NAMESPACE))
      store.streams.set(doc.arn, doc);
    return store;
  }

  get(arn: string): StreamDocument | undefined {
    return this.streams.get(arn);
  }

  all(): StreamDocument[] {
    return [...this.streams.values()];
  }

  /** The stream a table's enabled StreamSpecification names, made when first needed. */
  open(arn: string, region: string, tableName: string, viewType: string): StreamDocument {
    let stream = this.streams.get(arn);
    if (!stream) {
      stream = { arn, region, tableName, viewType, nextSequence: 1, records: [] };
      this.streams.set(arn, stream);
    }
    return stream;
  }

  /** Appends a change (INSERT, MODIFY, REMOVE) in DynamoDB's stream record shape. */
  async append(
    stream: StreamDocument,
    change: { eventName: string; keys: Image; oldImage?: Image; newImage?: Image; at: number },
  ): Promise<void> {
    const sequenceNumber = String(stream.nextSequence).padStart(21, '0');
    stream.nextSequence += 1;
    const view = stream.viewType;
    const dynamodb = {
      ApproximateCreationDateTime: Math.floor(change.at / 1000),
      Keys: change.keys,
      ...(change.newImage && (view === 'NEW_IMAGE' || view === 'NEW_AND_OLD_IMAGES')
        ? { NewImage: change.newImage }
        : {}),
      ...(change.oldImage && (view === 'OLD_IMAGE' || view === 'NEW_AND_OLD_IMAGES')
        ? { OldImage: change.oldImage }
        : {}),
      SequenceNumber: sequenceNumber,
      SizeBytes: JSON.stringify(change.newImage ?? change.oldImage ?? change.keys).length,
      StreamViewType: view,
    };
    stream.records.push({
      sequenceNumber,
      arrivedAt: change.at,
      shardId: SHARD_ID,
      record: {
        eventID: `${stream.nextSequence - 1}`.padStart(32, '0'),
        eventName: change.eventName,
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: stream.region,
        dynamodb,
      },
    });
    if (stream.records.length > KEPT) stream.records.splice(0, stream.records.length - KEPT);
    await this.storage.putDocument(NAMESPACE, encodeURIComponent(stream.arn), stream);
  }

  read(arn: string, after: string | undefined, limit: number): StreamRecordEntry[] | undefined {
    const stream = this.streams.get(arn);
    if (!stream) return undefined;
    const from = after === undefined ? -1n : BigInt(after);
    return stream.records.filter((entry) => BigInt(entry.sequenceNumber) > from).slice(0, limit);
  }

  latest(arn: string): string | undefined {
    const stream = this.streams.get(arn);
    if (!stream) return undefined;
    return String(stream.nextSequence - 1).padStart(21, '0');
  }
}

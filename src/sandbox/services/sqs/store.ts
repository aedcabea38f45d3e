import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'sqs/queues';

export interface SqsMessage {
  id: string;
  body: string;
  md5: string;
  sentAt: number;
  /** Hidden from receives until then (delay or visibility timeout). */
  visibleAt: number;
  receiveCount: number;
  /** The handle of the latest receive; DeleteMessage must name it. */
  receiptHandle?: string;
  groupId?: string;
  /** Message attributes as sent (DataType, StringValue or BinaryValue). */
  messageAttributes?: Record<string, MessageAttribute>;
  /** When it was first received (epoch ms). */
  firstReceivedAt?: number;
  /** The queue it was moved from to this dead-letter queue. */
  deadLetterSourceArn?: string;
}

export interface MessageAttribute {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

export interface QueueRecord {
  name: string;
  region: string;
  accountId: string;
  attributes: Record<string, string>;
  tags: Record<string, string>;
  createdAt: number;
  lastModifiedAt: number;
  messages: SqsMessage[];
}

const key = (region: string, name: string): string => `${region}/${name}`;

/** SQS queues per region, in memory and written through to storage. */
export class QueueStore {
  private readonly queues = new Map<string, QueueRecord>();
  /** When each recently deleted name (region/name) was deleted. */
  private readonly deletedAt = new Map<string, number>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<QueueStore> {
    const store = new QueueStore(storage);
    for (const { doc } of await storage.listDocuments<QueueRecord>(NAMESPACE)) {
      store.queues.set(key(doc.region, doc.name), doc);
    }
    return store;
  }

  get(region: string, name: string): QueueRecord | undefined {
    return this.queues.get(key(region, name));
  }

  list(region: string): QueueRecord[] {
    return [...this.queues.values()]
      .filter((queue) => queue.region === region)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The queue an ARN names, when it is in this store. */
  byArn(arn: string): QueueRecord | undefined {
    const [, , , region = '', accountId, name = ''] = arn.split(':');
    const queue = this.get(region, name);
    return queue?.accountId === accountId ? queue : undefined;
  }

  all(): QueueRecord[] {
    return [...this.queues.values()];
  }

  save(queue: QueueRecord): Promise<void> {
    this.queues.set(key(queue.region, queue.name), queue);
    return this.storage.putDocument(NAMESPACE, key(queue.region, queue.name), queue);
  }

  delete(queue: QueueRecord, now: number): Promise<void> {
    this.queues.delete(key(queue.region, queue.name));
    this.deletedAt.set(key(queue.region, queue.name), now);
    return this.storage.deleteDocument(NAMESPACE, key(queue.region, queue.name));
  }

  /** Whether the name was deleted less than `windowMs` ago (SQS's 60 s name cooldown). */
  recentlyDeleted(region: string, name: string, now: number, windowMs: number): boolean {
    const at = this.deletedAt.get(key(region, name));
    return at !== undefined && now - at < windowMs;
  }
}

export function queueArn(queue: QueueRecord): string {
  return `arn:aws:sqs:${queue.region}:${queue.accountId}:${queue.name}`;
}

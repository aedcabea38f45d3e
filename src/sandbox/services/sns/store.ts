import type { Storage } from '../../storage/storage.js';

const TOPICS = 'sns/topics';
const SUBSCRIPTIONS = 'sns/subscriptions';

export interface TopicRecord {
  arn: string;
  name: string;
  region: string;
  accountId: string;
  attributes: Record<string, string>;
  tags: Record<string, string>;
  createdAt: number;
  /** Template properties SNS holds no attribute for (DeliveryStatusLogging ...), read back as set. */
  kept?: Record<string, unknown>;
}

export interface SubscriptionRecord {
  arn: string;
  topicArn: string;
  region: string;
  protocol: string;
  endpoint: string;
  attributes: Record<string, string>;
  /** Made by its topic's `Subscription` property, which then owns it. */
  viaTopic?: boolean;
  /** The account that subscribed, which may not own the topic (the topic's account when absent). */
  owner?: string;
}

const id = (arn: string): string => encodeURIComponent(arn);

/** SNS topics and subscriptions by ARN, in memory and written through to storage. */
export class SnsStore {
  readonly topics = new Map<string, TopicRecord>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<SnsStore> {
    const store = new SnsStore(storage);
    for (const { doc } of await storage.listDocuments<TopicRecord>(TOPICS)) store.topics.set(doc.arn, doc);
    for (const { doc } of await storage.listDocuments<SubscriptionRecord>(SUBSCRIPTIONS)) {
      store.subscriptions.set(doc.arn, doc);
    }
    return store;
  }

  subscriptionsOf(topicArn: string): SubscriptionRecord[] {
    return [...this.subscriptions.values()].filter((s) => s.topicArn === topicArn);
  }

  saveTopic(topic: TopicRecord): Promise<void> {
    this.topics.set(topic.arn, topic);
    return this.storage.putDocument(TOPICS, id(topic.arn), topic);
  }

  /** Deletes the topic and its subscriptions, as SNS does. */
  async deleteTopic(topic: TopicRecord): Promise<void> {
    for (const subscription of this.subscriptionsOf(topic.arn)) await this.deleteSubscription(subscription);
    this.topics.delete(topic.arn);
    await this.storage.deleteDocument(TOPICS, id(topic.arn));
  }

  saveSubscription(subscription: SubscriptionRecord): Promise<void> {
    this.subscriptions.set(subscription.arn, subscription);
    return this.storage.putDocument(SUBSCRIPTIONS, id(subscription.arn), subscription);
  }

  deleteSubscription(subscription: SubscriptionRecord): Promise<void> {
    this.subscriptions.delete(subscription.arn);
    return this.storage.deleteDocument(SUBSCRIPTIONS, id(subscription.arn));
  }
}

import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'logs/groups';

export interface MetricFilterRecord {
  filterName: string;
  filterPattern: string;
  metricTransformations: unknown[];
  creationTime: number;
  applyOnTransformedLogs?: boolean;
}

export interface SubscriptionFilterRecord {
  filterName: string;
  filterPattern: string;
  destinationArn: string;
  roleArn?: string;
  distribution: string;
  creationTime: number;
}

export interface LogGroupRecord {
  name: string;
  region: string;
  creationTime: number;
  retentionInDays?: number;
  kmsKeyId?: string;
  logGroupClass: string;
  tags: Record<string, string>;
  dataProtectionPolicy?: string;
  /** AWS::Logs::LogGroup properties set through Cloud Control that this emulation does not model, kept so a read returns them. */
  otherProperties?: Record<string, unknown>;
  streams: Array<{ name: string; creationTime: number }>;
  metricFilters: MetricFilterRecord[];
  subscriptionFilters: SubscriptionFilterRecord[];
}

const key = (region: string, name: string): string => `${region}/${encodeURIComponent(name)}`;

/** Log groups per region (filters and streams inside their group), written through to storage. */
export class LogGroupStore {
  private readonly groups = new Map<string, LogGroupRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<LogGroupStore> {
    const store = new LogGroupStore(storage);
    for (const { doc } of await storage.listDocuments<LogGroupRecord>(NAMESPACE)) {
      store.groups.set(key(doc.region, doc.name), doc);
    }
    return store;
  }

  get(region: string, name: string): LogGroupRecord | undefined {
    return this.groups.get(key(region, name));
  }

  list(region: string): LogGroupRecord[] {
    return [...this.groups.values()]
      .filter((group) => group.region === region)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  all(): LogGroupRecord[] {
    return [...this.groups.values()];
  }

  save(group: LogGroupRecord): Promise<void> {
    this.groups.set(key(group.region, group.name), group);
    return this.storage.putDocument(NAMESPACE, key(group.region, group.name), group);
  }

  delete(group: LogGroupRecord): Promise<void> {
    this.groups.delete(key(group.region, group.name));
    return this.storage.deleteDocument(NAMESPACE, key(group.region, group.name));
  }
}

/** The ARN DescribeLogGroups returns as `arn` (with `:*`, what CloudFormation's Arn is). */
export function logGroupArn(group: { name: string; region: string }, accountId: string): string {
  return `${taggingArn(group, accountId)}:*`;
}

/** The ARN without `:*` (DescribeLogGroups' `logGroupArn`, the tagging APIs' resourceArn). */
export function taggingArn(group: { name: string; region: string }, accountId: string): string {
  return `arn:aws:logs:${group.region}:${accountId}:log-group:${group.name}`;
}

import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'cloudwatch/alarms';

export interface AlarmTag {
  Key: string;
  Value: string;
}

/** One alarm: its configuration as PutMetricAlarm or PutCompositeAlarm last set it (the wire names), tags apart. */
export interface AlarmRecord {
  name: string;
  region: string;
  /** The account the alarm was made in: its ARN's. */
  accountId: string;
  /** A composite alarm (PutCompositeAlarm); absent for a metric alarm. */
  composite?: true;
  /** The Put call's members but AlarmName and Tags, as the last call sent them. */
  config: Record<string, unknown>;
  tags: AlarmTag[];
  /** Epoch milliseconds. */
  configUpdatedAt: number;
  stateUpdatedAt: number;
}

const key = (accountId: string, region: string, name: string): string =>
  `${accountId}/${region}/${encodeURIComponent(name)}`;

/** Metric and composite alarms per account and region (one name space), in memory and written through to storage. */
export class AlarmStore {
  private readonly alarms = new Map<string, AlarmRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<AlarmStore> {
    const store = new AlarmStore(storage);
    for (const { doc } of await storage.listDocuments<AlarmRecord>(NAMESPACE)) {
      store.alarms.set(key(doc.accountId, doc.region, doc.name), doc);
    }
    return store;
  }

  get(accountId: string, region: string, name: string): AlarmRecord | undefined {
    return this.alarms.get(key(accountId, region, name));
  }

  /** The account's alarms in the region in name order, as DescribeAlarms lists them. */
  list(accountId: string, region: string): AlarmRecord[] {
    return [...this.alarms.values()]
      .filter((record) => record.accountId === accountId && record.region === region)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  all(): AlarmRecord[] {
    return [...this.alarms.values()];
  }

  save(record: AlarmRecord): Promise<void> {
    const id = key(record.accountId, record.region, record.name);
    this.alarms.set(id, record);
    return this.storage.putDocument(NAMESPACE, id, record);
  }

  delete(record: AlarmRecord): Promise<void> {
    const id = key(record.accountId, record.region, record.name);
    this.alarms.delete(id);
    return this.storage.deleteDocument(NAMESPACE, id);
  }
}

export function alarmArn(record: Pick<AlarmRecord, 'region' | 'accountId' | 'name'>): string {
  return `arn:aws:cloudwatch:${record.region}:${record.accountId}:alarm:${record.name}`;
}

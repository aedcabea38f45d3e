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

const key = (region: string, name: string): string => `${region}/${encodeURIComponent(name)}`;

/** Metric and composite alarms per region (one name space), in memory and written through to storage. */
export class AlarmStore {
  private readonly alarms = new Map<string, AlarmRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<AlarmStore> {
    const store = new AlarmStore(storage);
    for (const { doc } of await storage.listDocuments<AlarmRecord>(NAMESPACE)) {
      store.alarms.set(key(doc.region, doc.name), doc);
    }
    return store;
  }

  get(region: string, name: string): AlarmRecord | undefined {
    return this.alarms.get(key(region, name));
  }

  /** The region's alarms in name order, as DescribeAlarms lists them. */
  list(region: string): AlarmRecord[] {
    return [...this.alarms.values()]
      .filter((record) => record.region === region)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  all(): AlarmRecord[] {
    return [...this.alarms.values()];
  }

  save(record: AlarmRecord): Promise<void> {
    this.alarms.set(key(record.region, record.name), record);
    return this.storage.putDocument(NAMESPACE, key(record.region, record.name), record);
  }

  delete(record: AlarmRecord): Promise<void> {
    this.alarms.delete(key(record.region, record.name));
    return this.storage.deleteDocument(NAMESPACE, key(record.region, record.name));
  }
}

export function alarmArn(record: Pick<AlarmRecord, 'region' | 'accountId' | 'name'>): string {
  return `arn:aws:cloudwatch:${record.region}:${record.accountId}:alarm:${record.name}`;
}

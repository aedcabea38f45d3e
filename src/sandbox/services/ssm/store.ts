import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'ssm/parameters';

export type ParameterType = 'String' | 'StringList' | 'SecureString';

export interface ParameterVersion {
  version: number;
  value: string;
  lastModified: number;
  description?: string;
}

export interface ParameterRecord {
  name: string;
  region: string;
  type: ParameterType;
  dataType: string;
  tier: string;
  allowedPattern?: string;
  tags: Array<{ Key: string; Value: string }>;
  /** Oldest first; the last one is current. */
  versions: ParameterVersion[];
  /** `aws` for AWS's public parameters, which belong to no account and cannot be written. */
  owner?: 'aws';
}

const key = (region: string, name: string): string => `${region}/${encodeURIComponent(name)}`;

/** SSM parameters per region, in memory and written through to storage. */
export class ParameterStore {
  private readonly parameters = new Map<string, ParameterRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<ParameterStore> {
    const store = new ParameterStore(storage);
    for (const { doc } of await storage.listDocuments<ParameterRecord>(NAMESPACE)) {
      store.parameters.set(key(doc.region, doc.name), doc);
    }
    return store;
  }

  get(region: string, name: string): ParameterRecord | undefined {
    return this.parameters.get(key(region, name));
  }

  list(region: string): ParameterRecord[] {
    return [...this.parameters.values()]
      .filter((record) => record.region === region)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  all(): ParameterRecord[] {
    return [...this.parameters.values()];
  }

  save(record: ParameterRecord): Promise<void> {
    this.parameters.set(key(record.region, record.name), record);
    return this.storage.putDocument(NAMESPACE, key(record.region, record.name), record);
  }

  delete(record: ParameterRecord): Promise<void> {
    this.parameters.delete(key(record.region, record.name));
    return this.storage.deleteDocument(NAMESPACE, key(record.region, record.name));
  }
}

export function current(record: ParameterRecord): ParameterVersion {
  return record.versions[record.versions.length - 1]!;
}

export function parameterArn(
  record: { name: string; region: string; owner?: 'aws' },
  accountId: string,
): string {
  const account = record.owner === 'aws' ? '' : accountId;
  return `arn:aws:ssm:${record.region}:${account}:parameter/${record.name.replace(/^\//, '')}`;
}

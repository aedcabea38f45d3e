import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'secretsmanager/secrets';

export interface SecretVersion {
  versionId: string;
  secretString?: string;
  secretBinary?: string;
  stages: string[];
  createdDate: number;
}

export interface SecretRecord {
  name: string;
  arn: string;
  region: string;
  description?: string;
  kmsKeyId?: string;
  tags: Array<{ Key: string; Value: string }>;
  createdDate: number;
  lastChangedDate: number;
  deletedDate?: number;
  versions: SecretVersion[];
}

const key = (region: string, name: string): string => `${region}/${encodeURIComponent(name)}`;

/** Secrets per region (kept through their recovery window), written through to storage. */
export class SecretStore {
  private readonly secrets = new Map<string, SecretRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<SecretStore> {
    const store = new SecretStore(storage);
    for (const { doc } of await storage.listDocuments<SecretRecord>(NAMESPACE)) {
      store.secrets.set(key(doc.region, doc.name), doc);
    }
    return store;
  }

  /** By name or ARN. */
  find(region: string, id: string): SecretRecord | undefined {
    return (
      this.secrets.get(key(region, id)) ??
      [...this.secrets.values()].find((s) => s.region === region && s.arn === id)
    );
  }

  list(region: string): SecretRecord[] {
    return [...this.secrets.values()].filter((secret) => secret.region === region);
  }

  all(): SecretRecord[] {
    return [...this.secrets.values()];
  }

  save(secret: SecretRecord): Promise<void> {
    this.secrets.set(key(secret.region, secret.name), secret);
    return this.storage.putDocument(NAMESPACE, key(secret.region, secret.name), secret);
  }

  delete(secret: SecretRecord): Promise<void> {
    this.secrets.delete(key(secret.region, secret.name));
    return this.storage.deleteDocument(NAMESPACE, key(secret.region, secret.name));
  }
}

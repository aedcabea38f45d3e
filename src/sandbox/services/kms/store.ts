import type { Storage } from '../../storage/storage.js';

const KEYS = 'kms/keys';
const ALIASES = 'kms/aliases';

export type KeyState = 'Enabled' | 'Disabled' | 'PendingDeletion';

export interface KeyRecord {
  keyId: string;
  region: string;
  creationDate: number;
  description: string;
  keyUsage: string;
  keySpec: string;
  multiRegion: boolean;
  /** Set on a multi-Region replica: the region of its primary key. */
  primaryRegion?: string;
  state: KeyState;
  policy: string;
  rotation: boolean;
  tags: Array<{ TagKey: string; TagValue: string }>;
  deletionDate?: number;
}

export interface AliasRecord {
  aliasName: string;
  region: string;
  targetKeyId: string;
  creationDate: number;
}

const key = (region: string, id: string): string => `${region}/${encodeURIComponent(id)}`;

/** KMS keys and aliases per region, written through to storage. */
export class KmsStore {
  private readonly keys = new Map<string, KeyRecord>();
  private readonly aliases = new Map<string, AliasRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<KmsStore> {
    const store = new KmsStore(storage);
    for (const { doc } of await storage.listDocuments<KeyRecord>(KEYS))
      store.keys.set(key(doc.region, doc.keyId), doc);
    for (const { doc } of await storage.listDocuments<AliasRecord>(ALIASES)) {
      store.aliases.set(key(doc.region, doc.aliasName), doc);
    }
    return store;
  }

  getKey(region: string, keyId: string): KeyRecord | undefined {
    return this.keys.get(key(region, keyId));
  }

  keysIn(region: string): KeyRecord[] {
    return [...this.keys.values()].filter((record) => record.region === region);
  }

  /** The key `keyId` in every region (a multi-Region key's primary and replicas). */
  keyEverywhere(keyId: string): KeyRecord[] {
    return [...this.keys.values()].filter((record) => record.keyId === keyId);
  }

  allKeys(): KeyRecord[] {
    return [...this.keys.values()];
  }

  saveKey(record: KeyRecord): Promise<void> {
    this.keys.set(key(record.region, record.keyId), record);
    return this.storage.putDocument(KEYS, key(record.region, record.keyId), record);
  }

  getAlias(region: string, aliasName: string): AliasRecord | undefined {
    return this.aliases.get(key(region, aliasName));
  }

  aliasesIn(region: string): AliasRecord[] {
    return [...this.aliases.values()].filter((record) => record.region === region);
  }

  allAliases(): AliasRecord[] {
    return [...this.aliases.values()];
  }

  saveAlias(record: AliasRecord): Promise<void> {
    this.aliases.set(key(record.region, record.aliasName), record);
    return this.storage.putDocument(ALIASES, key(record.region, record.aliasName), record);
  }

  deleteAlias(record: AliasRecord): Promise<void> {
    this.aliases.delete(key(record.region, record.aliasName));
    return this.storage.deleteDocument(ALIASES, key(record.region, record.aliasName));
  }
}

export function keyArn(record: { region: string; keyId: string }, accountId: string): string {
  return `arn:aws:kms:${record.region}:${accountId}:key/${record.keyId}`;
}

export function aliasArn(record: { region: string; aliasName: string }, accountId: string): string {
  return `arn:aws:kms:${record.region}:${accountId}:${record.aliasName}`;
}

import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'dynamodb/extras';

/**
 * What DynamoDB keeps per table that dynalite does not model (it strips these members
 * or lacks the operation): streams, server-side encryption, time to live, deletion protection.
 */
export interface TableExtras {
  region: string;
  tableName: string;
  stream?: { StreamViewType: string; LatestStreamArn: string; LatestStreamLabel: string };
  sse?: { SSEType: string; KMSMasterKeyArn?: string };
  ttl?: { AttributeName: string };
  deletionProtection?: boolean;
}

const key = (region: string, tableName: string): string => `${region}/${tableName}`;

export class ExtrasStore {
  private readonly extras = new Map<string, TableExtras>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<ExtrasStore> {
    const store = new ExtrasStore(storage);
    for (const { doc } of await storage.listDocuments<TableExtras>(NAMESPACE)) {
      store.extras.set(key(doc.region, doc.tableName), doc);
    }
    return store;
  }

  get(region: string, tableName: string): TableExtras {
    return this.extras.get(key(region, tableName)) ?? { region, tableName };
  }

  all(): TableExtras[] {
    return [...this.extras.values()];
  }

  save(extras: TableExtras): Promise<void> {
    this.extras.set(key(extras.region, extras.tableName), extras);
    return this.storage.putDocument(NAMESPACE, key(extras.region, extras.tableName), extras);
  }

  delete(region: string, tableName: string): Promise<void> {
    this.extras.delete(key(region, tableName));
    return this.storage.deleteDocument(NAMESPACE, key(region, tableName));
  }
}

/** Stream, SSE and deletion-protection members DescribeTable / CreateTable / UpdateTable carry in a TableDescription. */
export function describeExtras(extras: TableExtras): Record<string, unknown> {
  return {
    DeletionProtectionEnabled: extras.deletionProtection === true,
    ...(extras.stream
      ? {
          StreamSpecification: { StreamEnabled: true, StreamViewType: extras.stream.StreamViewType },
          LatestStreamArn: extras.stream.LatestStreamArn,
          LatestStreamLabel: extras.stream.LatestStreamLabel,
        }
      : {}),
    ...(extras.sse
      ? {
          SSEDescription: {
            Status: 'ENABLED',
            SSEType: extras.sse.SSEType,
            ...(extras.sse.KMSMasterKeyArn !== undefined
              ? { KMSMasterKeyArn: extras.sse.KMSMasterKeyArn }
              : {}),
          },
        }
      : {}),
  };
}

/** Applies a request's StreamSpecification / SSESpecification to the extras. */
export function applySpecifications(
  extras: TableExtras,
  input: Record<string, unknown>,
  tableArn: string,
  accountId: string,
): TableExtras {
  const next = { ...extras };
  const stream = input.StreamSpecification as
    { StreamEnabled?: boolean; StreamViewType?: string } | undefined;
  if (stream) {
    if (stream.StreamEnabled === true) {
      const label = new Date().toISOString().replace('Z', '');
      next.stream = {
        StreamViewType: stream.StreamViewType ?? 'NEW_AND_OLD_IMAGES',
        LatestStreamArn: `${tableArn}/stream/${label}`,
        LatestStreamLabel: label,
      };
    } else delete next.stream;
  }
  if (typeof input.DeletionProtectionEnabled === 'boolean')
    next.deletionProtection = input.DeletionProtectionEnabled;
  const sse = input.SSESpecification as
    { Enabled?: boolean; SSEType?: string; KMSMasterKeyId?: string } | undefined;
  if (sse) {
    if (sse.Enabled === true) {
      const keyId = sse.KMSMasterKeyId ?? 'alias/aws/dynamodb';
      const region = extras.region;
      next.sse = {
        SSEType: sse.SSEType ?? 'KMS',
        KMSMasterKeyArn: keyId.startsWith('arn:')
          ? keyId
          : `arn:aws:kms:${region}:${accountId}:${keyId.startsWith('alias/') ? keyId : `key/${keyId}`}`,
      };
    } else delete next.sse;
  }
  return next;
}

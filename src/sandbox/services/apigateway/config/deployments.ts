import { createHash } from 'node:crypto';
import type { ResourceHandler, ResourceModel } from '../../../resources.js';
import type { Storage } from '../../../storage/storage.js';
import { API_ID_PROPERTY, DEPLOYED_PARTS, type ApiConfigReader, type ApiKind } from './reader.js';

const NAMESPACE = 'apigateway/deployments';

/** An API's routes, integrations and authorizers as they were when a deployment was made. */
export interface DeploymentSnapshot {
  kind: ApiKind;
  region: string;
  apiId: string;
  deploymentId: string;
  /** The API's parts by CloudFormation type. */
  parts: Record<string, ResourceModel[]>;
}

const key = (region: string, apiId: string, deploymentId: string): string =>
  createHash('sha256').update(`${region}\n${apiId}\n${deploymentId}`).digest('hex').slice(0, 40);

/**
 * Deployments as API Gateway makes them: creating one freezes the API's configuration, and a
 * stage answers from its deployment's snapshot, not from later changes. The Deployment types
 * stay in Cloud Control's generic store; this wraps their handler to take the snapshot.
 */
export class DeploymentSnapshots {
  private readonly snapshots = new Map<string, DeploymentSnapshot>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<DeploymentSnapshots> {
    const loaded = new DeploymentSnapshots(storage);
    for (const { id, doc } of await storage.listDocuments<DeploymentSnapshot>(NAMESPACE)) {
      loaded.snapshots.set(id, doc);
    }
    return loaded;
  }

  get(region: string, apiId: string, deploymentId: string): DeploymentSnapshot | undefined {
    return this.snapshots.get(key(region, apiId, deploymentId));
  }

  /** The handler for a Deployment type: the generic store's, plus the snapshot on create. */
  handler(kind: ApiKind, inner: () => ResourceHandler, reader: ApiConfigReader): ResourceHandler {
    const apiIdOf = (model: ResourceModel): string => String(model[API_ID_PROPERTY[kind]] ?? '');
    return {
      create: async (desired, region, accountId) => {
        const entry = await inner().create(desired, region, accountId);
        const apiId = apiIdOf(entry.model);
        const snapshot: DeploymentSnapshot = {
          kind,
          region,
          apiId,
          deploymentId: String(entry.model.DeploymentId ?? ''),
          parts: Object.fromEntries(
            DEPLOYED_PARTS[kind].map((type) => [type, reader.partsOf(type, kind, region, apiId)]),
          ),
        };
        const id = key(region, apiId, snapshot.deploymentId);
        this.snapshots.set(id, snapshot);
        await this.storage.putDocument(NAMESPACE, id, snapshot);
        return entry;
      },
      read: (identifier, region, accountId) => inner().read(identifier, region, accountId),
      update: (identifier, desired, region, accountId) =>
        inner().update(identifier, desired, region, accountId),
      delete: async (identifier, region, accountId) => {
        const model = inner().read(identifier, region, accountId);
        await inner().delete(identifier, region, accountId);
        if (!model) return;
        const id = key(region, apiIdOf(model), String(model.DeploymentId ?? ''));
        if (this.snapshots.delete(id)) await this.storage.deleteDocument(NAMESPACE, id);
      },
      list: (region, accountId) => inner().list(region, accountId),
    };
  }
}

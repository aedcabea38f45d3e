import {
  HandlerError,
  type ResourceHandler,
  type ResourceHandlers,
  type ResourceModel,
} from '../../resources.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { ecrErrors } from './ecr-errors.js';
import type { ImageStore } from './images/image-store.js';
import type { Uploads } from './images/uploads.js';

const REPOSITORY = 'AWS::ECR::Repository';
const NAME = /^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*\/)*[a-z0-9]+(?:[._-][a-z0-9]+)*$/;

/**
 * ECR repositories, kept where Cloud Control keeps AWS::ECR::Repository: a repository a
 * stack made is one ECR describes, and a policy set here is the model Cloud Control reads.
 * Their images are in the image store; a repository goes with its images or not at all.
 */
export class Repositories {
  private readonly created = new Map<string, number>();

  constructor(
    private readonly resources: ResourceHandlers,
    readonly registryId: string,
    private readonly images: ImageStore,
    private readonly uploads: Uploads,
  ) {}

  list(region: string): ResourceModel[] {
    return this.handler()
      .list(region, this.registryId)
      .map((entry) => entry.model);
  }

  get(region: string, name: string): ResourceModel {
    const model = this.handler().read(name, region, this.registryId);
    if (!model) throw ecrErrors.repositoryNotFound(name, this.registryId);
    return model;
  }

  byArn(region: string, arn: string): ResourceModel {
    const name = /:repository\/(.+)$/.exec(arn)?.[1];
    if (!name)
      throw ecrErrors.invalidParameter(
        `Invalid parameter at 'resourceArn' failed to satisfy constraint: 'Invalid ARN'`,
      );
    return this.get(region, name);
  }

  async create(region: string, desired: ResourceModel): Promise<ResourceModel> {
    const name = String(desired.RepositoryName);
    if (!NAME.test(name) || name.length < 2 || name.length > 256) {
      throw ecrErrors.invalidParameter(
        `Invalid parameter at 'repositoryName' failed to satisfy constraint: 'must satisfy regular expression '${NAME.source}''`,
      );
    }
    if (this.handler().read(name, region, this.registryId))
      throw ecrErrors.repositoryExists(name, this.registryId);
    const entry = await this.handler().create(desired, region, this.registryId);
    return entry.model;
  }

  /** Rewrites the repository's writable settings with `change` applied. */
  async update(region: string, name: string, change: (model: ResourceModel) => void): Promise<ResourceModel> {
    const current = this.get(region, name);
    const writable = new Set(sandboxSchemaFor(REPOSITORY)!.props);
    const desired = Object.fromEntries(Object.entries(current).filter(([key]) => writable.has(key)));
    change(desired);
    return this.handler().update(name, desired, region, this.registryId);
  }

  /** DeleteRepository: one holding images only with `force`, which removes them too. */
  async delete(region: string, name: string, force: boolean): Promise<ResourceModel> {
    const model = this.get(region, name);
    if (!force && !this.images.isEmpty(region, name))
      throw ecrErrors.repositoryNotEmpty(name, this.registryId);
    await this.handler().delete(name, region, this.registryId);
    await this.removeImages(region, name);
    return model;
  }

  /**
   * AWS::ECR::Repository for Cloud Control, over its generic store: as CloudFormation does, a
   * repository holding images is deleted only when its `EmptyOnDelete` is true.
   */
  resourceHandler(): ResourceHandler {
    return {
      create: (desired, region, accountId) => this.handler().create(desired, region, accountId),
      read: (identifier, region, accountId) => this.handler().read(identifier, region, accountId),
      update: (identifier, desired, region, accountId) =>
        this.handler().update(identifier, desired, region, accountId),
      list: (region, accountId) => this.handler().list(region, accountId),
      delete: async (identifier, region, accountId) => {
        const model = this.handler().read(identifier, region, accountId);
        if (model && model.EmptyOnDelete !== true && !this.images.isEmpty(region, identifier)) {
          throw new HandlerError(
            'GeneralServiceException',
            ecrErrors.repositoryNotEmpty(identifier, this.registryId).message,
          );
        }
        await this.handler().delete(identifier, region, accountId);
        await this.removeImages(region, identifier);
      },
    };
  }

  private async removeImages(region: string, name: string): Promise<void> {
    this.uploads.forget(region, name);
    await this.images.purge(region, name);
  }

  /** ECR's Repository shape. */
  view(model: ResourceModel): Record<string, unknown> {
    const arn = String(model.Arn);
    if (!this.created.has(arn)) this.created.set(arn, Math.floor(Date.now() / 1000));
    const scanning = model.ImageScanningConfiguration as { ScanOnPush?: boolean } | undefined;
    const encryption = model.EncryptionConfiguration as
      { EncryptionType?: string; KmsKey?: string } | undefined;
    return {
      repositoryArn: arn,
      registryId: this.registryId,
      repositoryName: model.RepositoryName,
      repositoryUri: model.RepositoryUri,
      createdAt: this.created.get(arn),
      imageTagMutability: model.ImageTagMutability ?? 'MUTABLE',
      imageScanningConfiguration: { scanOnPush: scanning?.ScanOnPush === true },
      encryptionConfiguration: {
        encryptionType: encryption?.EncryptionType ?? 'AES256',
        ...(encryption?.KmsKey ? { kmsKey: encryption.KmsKey } : {}),
      },
    };
  }

  /** Cloud Control's generic store, where the repositories are. */
  private handler(): ResourceHandler {
    return this.resources.generic(REPOSITORY)!;
  }
}

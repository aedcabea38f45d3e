import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { InventoryEntry, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { ecrImages } from '../../ports/index.js';
import { getAuthorizationToken } from './auth-ops.js';
import { ecrErrors } from './ecr-errors.js';
import { BlobStore } from './images/blob-store.js';
import { ImageStore } from './images/image-store.js';
import { Uploads } from './images/uploads.js';
import * as images from './image-ops.js';
import { imageReader } from './image-reader.js';
import * as layers from './layer-ops.js';
import { registryIngress } from './registry/ingress.js';
import { RegistryTokens } from './registry/tokens.js';
import { Repositories } from './repositories.js';
import * as ops from './repository-ops.js';

const HANDLERS: Readonly<Record<string, (call: ops.EcrCall) => Promise<unknown>>> = {
  CreateRepository: ops.createRepository,
  DescribeRepositories: ops.describeRepositories,
  DeleteRepository: ops.deleteRepository,
  GetRepositoryPolicy: ops.getRepositoryPolicy,
  SetRepositoryPolicy: ops.setRepositoryPolicy,
  DeleteRepositoryPolicy: ops.deleteRepositoryPolicy,
  PutLifecyclePolicy: ops.putLifecyclePolicy,
  GetLifecyclePolicy: ops.getLifecyclePolicy,
  DeleteLifecyclePolicy: ops.deleteLifecyclePolicy,
  TagResource: ops.tagResource,
  UntagResource: ops.untagResource,
  ListTagsForResource: ops.listTagsForResource,
  DescribeImages: images.describeImages,
  ListImages: images.listImages,
  BatchGetImage: images.batchGetImage,
  BatchDeleteImage: images.batchDeleteImage,
  PutImage: images.putImage,
  BatchCheckLayerAvailability: layers.batchCheckLayerAvailability,
  InitiateLayerUpload: layers.initiateLayerUpload,
  UploadLayerPart: layers.uploadLayerPart,
  CompleteLayerUpload: layers.completeLayerUpload,
  GetAuthorizationToken: getAuthorizationToken,
};

const READS = new Set([
  'DescribeRepositories',
  'GetRepositoryPolicy',
  'GetLifecyclePolicy',
  'ListTagsForResource',
  'DescribeImages',
  'ListImages',
  'BatchGetImage',
  'BatchCheckLayerAvailability',
  'GetAuthorizationToken',
]);

const REPOSITORY = 'AWS::ECR::Repository';

/**
 * ECR over JSON 1.1, and its registry (Docker Registry HTTP API v2 / OCI distribution) over
 * plain HTTP on the same port (`registry/ingress.ts`). Repositories are in Cloud Control's
 * store for AWS::ECR::Repository; their images in `images/`, blobs content-addressed in storage.
 */
export const createEcrService: ServiceModuleFactory = async (context) => {
  const blobs = await BlobStore.load(context.storage);
  const imageStore = await ImageStore.load(context.storage, blobs);
  const uploads = new Uploads(imageStore);
  const tokens = await RegistryTokens.load(context.storage);
  const repositories = new Repositories(context.resources, context.accountId, imageStore, uploads);
  context.resources.register(REPOSITORY, repositories.resourceHandler());
  ecrImages.expose(context, imageReader(repositories, imageStore, tokens));
  const module: ServiceModule = {
    name: 'ecr',
    codec: jsonCodec('1.1'),
    ingress: registryIngress({ repositories, images: imageStore, uploads, tokens, region: context.region }),
    operation: (request) => jsonOperation(request, 'AmazonEC2ContainerRegistry_V20150921'),
    isMutating: (operation) => !READS.has(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw ecrErrors.invalidAction(operation);
      return jsonResult(
        '1.1',
        await handler({
          repositories,
          images: imageStore,
          uploads,
          tokens,
          region: request.region,
          accountId: request.accountId,
          input: jsonInput(request),
        }),
      );
    },
    inventory: () => ({
      'AWS::ECR::Image': imageStore.all().flatMap(({ region, name, images: held, tags }) =>
        held.map((image): InventoryEntry => ({
          id: `${name}@${image.digest}`,
          region,
          repository: name,
          tags: tags.get(image.digest) ?? [],
          mediaType: image.mediaType,
        })),
      ),
    }),
  };
  return module;
};

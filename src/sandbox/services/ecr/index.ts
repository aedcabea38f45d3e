import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { ecrErrors } from './ecr-errors.js';
import { Repositories } from './repositories.js';
import * as images from './image-ops.js';
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
  ListImages: images.listImages,
  BatchDeleteImage: images.batchDeleteImage,
  GetAuthorizationToken: images.getAuthorizationToken,
};

const READS = new Set([
  'DescribeRepositories',
  'GetRepositoryPolicy',
  'GetLifecyclePolicy',
  'ListTagsForResource',
  'ListImages',
  'GetAuthorizationToken',
]);

/** ECR repositories (holding no images) over JSON 1.1, in Cloud Control's store for AWS::ECR::Repository. */
export const createEcrService: ServiceModuleFactory = async (context) => {
  const repositories = new Repositories(context.resources, context.accountId);
  const module: ServiceModule = {
    name: 'ecr',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'AmazonEC2ContainerRegistry_V20150921'),
    isMutating: (operation) => !READS.has(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw ecrErrors.invalidAction(operation);
      return jsonResult(
        '1.1',
        await handler({ repositories, region: request.region, input: jsonInput(request) }),
      );
    },
    inventory: () => ({}),
  };
  return module;
};

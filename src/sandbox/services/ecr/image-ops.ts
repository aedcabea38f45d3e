import { randomBytes } from 'node:crypto';
import { requiredString } from '../../protocols/json.js';
import type { EcrCall } from './repository-ops.js';

type ImageId = { imageDigest?: string; imageTag?: string };

/**
 * The image calls of a registry that holds no images (the sandbox runs no pushes): a
 * repository lists none, and deleting any is ImageNotFound per image, as ECR reports it.
 */
export async function listImages({ repositories, region, input }: EcrCall): Promise<unknown> {
  repositories.get(region, requiredString(input, 'repositoryName', 'InvalidParameterException'));
  return { imageIds: [] };
}

export async function batchDeleteImage({ repositories, region, input }: EcrCall): Promise<unknown> {
  repositories.get(region, requiredString(input, 'repositoryName', 'InvalidParameterException'));
  const ids = (input.imageIds as ImageId[] | undefined) ?? [];
  return {
    imageIds: [],
    failures: ids.map((imageId) => ({
      imageId,
      failureCode: 'ImageNotFound',
      failureReason: 'Requested image not found',
    })),
  };
}

/** A token for `docker login`: base64 of `AWS:<password>`, valid for 12 hours. */
export async function getAuthorizationToken({ repositories, region }: EcrCall): Promise<unknown> {
  const token = Buffer.from(`AWS:${randomBytes(24).toString('base64')}`).toString('base64');
  return {
    authorizationData: [
      {
        authorizationToken: token,
        expiresAt: Math.floor(Date.now() / 1000) + 12 * 3600,
        proxyEndpoint: `https://${repositories.registryId}.dkr.ecr.${region}.amazonaws.com`,
      },
    ],
  };
}

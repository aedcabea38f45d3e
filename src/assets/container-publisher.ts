import { CdkdError } from '../errors.js';
import type { ContainerAsset } from '../assembly/index.js';
import type { AssetPublisher } from './publisher.js';

/** Container images need a Docker engine to build; cdkd does not drive one yet. */
export const containerImagePublisher: AssetPublisher<ContainerAsset> = {
  check: (asset, stack) => Promise.reject(unsupported(asset, stack)),
  publish: (asset, context) => Promise.reject(unsupported(asset, context.stack)),
};

function unsupported(asset: ContainerAsset, stack: string): CdkdError {
  const name = asset.displayName ? `${asset.displayName} (${asset.hash})` : asset.hash;
  return new CdkdError(
    'CONTAINER_ASSETS_UNSUPPORTED',
    `Stack ${stack} has a container image asset, ${name}; cdkd cannot build and push container images yet.`,
    {
      hint: 'Deploy this stack with the CDK CLI, or use a prebuilt image (ContainerImage.fromEcrRepository / fromRegistry) instead of an image asset.',
    },
  );
}

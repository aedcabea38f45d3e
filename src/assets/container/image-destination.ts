import type { ImageDestination } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';

export interface ResolvedImageDestination {
  repositoryName: string;
  imageTag: string;
}

/** The account, region and partition placeholders of an environment-agnostic manifest, filled in. */
export function resolvePlaceholders(
  text: string,
  target: { accountId: string; region: string; partition?: string },
): string {
  return text
    .replaceAll('${AWS::AccountId}', target.accountId)
    .replaceAll('${AWS::Region}', target.region)
    .replaceAll('${AWS::Partition}', target.partition ?? 'aws');
}

/**
 * The destination check (spec 002, cloud assembly checks): cdkd pushes an image to the
 * repository the manifest names, so that name must have the shape of a CDK bootstrap
 * image repository for the account and region being deployed to,
 * `cdk-<qualifier>-container-assets-<account>-<region>`, and a destination region, where
 * given, must be that region. It is a name-shape check, not proof of ownership: it keeps a
 * careless manifest from sending images to a repository of another account or purpose.
 */
export function checkImageDestination(
  destination: ImageDestination,
  target: { accountId: string; region: string },
  asset: { name: string; stack: string },
): ResolvedImageDestination {
  const repositoryName = resolvePlaceholders(destination.repositoryName, target);
  const imageTag = resolvePlaceholders(destination.imageTag, target);
  const region = destination.region && resolvePlaceholders(destination.region, target);
  const shape = new RegExp(`^cdk-[a-z0-9_-]+-container-assets-${target.accountId}-${escape(target.region)}$`);
  if ((region && region !== target.region) || !shape.test(repositoryName)) {
    const where = region && region !== target.region ? ` in ${region}` : '';
    throw new CdkdError(
      'ASSET_DESTINATION_REFUSED',
      `Image asset ${asset.name} of stack ${asset.stack} is to be pushed to the repository "${repositoryName}"${where}, which is not named like a CDK bootstrap image repository of account ${target.accountId} in ${target.region} (cdk-<qualifier>-container-assets-${target.accountId}-${target.region}).`,
      {
        hint: 'Synthesize with the default stack synthesizer (or one that names the bootstrap repository), or push the image yourself and reference it with fromEcrRepository.',
      },
    );
  }
  return { repositoryName, imageTag };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

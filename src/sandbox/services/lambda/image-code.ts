import { ecrImages } from '../../ports/index.js';
import type { LambdaCall } from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { CodeRecord } from './model.js';

/** Lambda's architecture names to the OCI platform's. */
export const PLATFORM: Readonly<Record<string, string>> = { x86_64: 'amd64', arm64: 'arm64' };

/**
 * A PackageType Image function's code: the ImageUri must name an image in the sandbox's
 * registry (Lambda refuses one it cannot find, as AWS does), pinned to the digest it
 * resolves to now, so a later push to the tag does not change the function.
 */
export async function resolveImageCode(
  call: LambdaCall,
  imageUri: string,
  architecture: string,
): Promise<CodeRecord> {
  const registry = ecrImages.of(call.context);
  const found = registry
    ? await registry.resolve(imageUri, PLATFORM[architecture] ?? architecture)
    : 'not-found';
  if (found === 'invalid') {
    throw lambdaErrors.invalid(`Source image ${imageUri} is not valid. Provide a valid source image.`);
  }
  if (found === 'not-found') {
    throw lambdaErrors.invalid(`Source image ${imageUri} does not exist. Provide a valid source image.`);
  }
  const repository = imageUri.slice(0, imageUri.indexOf('/') + 1) + found.repository;
  return {
    sha256: found.digest.slice('sha256:'.length),
    size: 0,
    source: 'image',
    image: { uri: imageUri, resolvedUri: `${repository}@${found.digest}`, digest: found.digest },
  };
}

/**
 * The package type a CreateFunction names must match its code: an Image function takes an
 * ImageUri and no Runtime or Handler; a Zip function takes no ImageUri.
 */
export function checkPackageType(
  input: Record<string, unknown>,
  code: Record<string, unknown>,
): 'Zip' | 'Image' {
  const packageType = input.PackageType ?? 'Zip';
  if (packageType !== 'Zip' && packageType !== 'Image') {
    throw lambdaErrors.validation(
      'packageType',
      String(packageType),
      'Member must satisfy enum value set: [Image, Zip]',
    );
  }
  const hasImage = typeof code.ImageUri === 'string';
  if (packageType === 'Zip' && hasImage) {
    throw lambdaErrors.invalid(
      "Please don't provide ImageUri when creating a function with packageType Zip.",
    );
  }
  if (packageType === 'Image' && !hasImage) {
    throw lambdaErrors.invalid('Please provide ImageUri when creating a function with packageType Image.');
  }
  if (packageType === 'Image' && (input.Runtime !== undefined || input.Handler !== undefined)) {
    throw lambdaErrors.invalid(
      "Please don't provide Handler or Runtime or Layer when the intended function PackageType is Image.",
    );
  }
  return packageType;
}

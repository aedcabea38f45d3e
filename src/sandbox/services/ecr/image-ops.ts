import { requiredString } from '../../protocols/json.js';
import { ecrErrors } from './ecr-errors.js';
import { isDigest, sha256Digest } from './images/digests.js';
import { ImageStoreError, type ImageRecord } from './images/image-store.js';
import { namedRepository, type EcrCall } from './repository-ops.js';

interface ImageId {
  imageDigest?: string;
  imageTag?: string;
}

const PAGE = 100;

function imageIds(input: Record<string, unknown>): ImageId[] {
  return Array.isArray(input.imageIds) ? (input.imageIds as ImageId[]) : [];
}

function describeId(id: ImageId): string {
  return `{${[id.imageDigest !== undefined ? `imageDigest:'${id.imageDigest}'` : '', id.imageTag !== undefined ? `imageTag:'${id.imageTag}'` : ''].filter(Boolean).join(', ')}}`;
}

/** The digest an image id names in the repository, or the failure code BatchGetImage / BatchDeleteImage report. */
interface ImageFailure {
  failureCode: string;
  failureReason: string;
}

function lookup(call: EcrCall, name: string, id: ImageId): { digest: string } | ImageFailure {
  if (id.imageDigest === undefined && id.imageTag === undefined) {
    return {
      failureCode: 'MissingDigestAndTag',
      failureReason: 'Invalid request parameters: both tag and digest cannot be null',
    };
  }
  if (id.imageDigest !== undefined && !isDigest(id.imageDigest)) {
    return {
      failureCode: 'InvalidImageDigest',
      failureReason:
        "Invalid request parameters: image digest should satisfy the regex '[a-zA-Z0-9-_+.]+:[a-fA-F0-9]+'",
    };
  }
  const byTag = id.imageTag !== undefined ? call.images.resolve(call.region, name, id.imageTag) : undefined;
  const byDigest =
    id.imageDigest !== undefined ? call.images.resolve(call.region, name, id.imageDigest) : undefined;
  if (
    id.imageTag !== undefined &&
    id.imageDigest !== undefined &&
    byTag !== undefined &&
    byDigest !== undefined &&
    byTag !== byDigest
  ) {
    return {
      failureCode: 'ImageTagDoesNotMatchDigest',
      failureReason: 'Invalid request parameters: given tag does not map to the given digest',
    };
  }
  const digest = id.imageDigest !== undefined ? byDigest : byTag;
  if (digest === undefined || (id.imageTag !== undefined && byTag === undefined)) {
    return { failureCode: 'ImageNotFound', failureReason: 'Requested image not found' };
  }
  return { digest };
}

function detail(call: EcrCall, name: string, image: ImageRecord, tags: string[]): Record<string, unknown> {
  return {
    registryId: call.repositories.registryId,
    repositoryName: name,
    imageDigest: image.digest,
    ...(tags.length > 0 ? { imageTags: tags } : {}),
    imageSizeInBytes: image.sizeInBytes,
    imagePushedAt: image.pushedAt / 1000,
    imageManifestMediaType: image.mediaType,
    ...(image.artifactMediaType ? { artifactMediaType: image.artifactMediaType } : {}),
  };
}

function page<T>(items: T[], input: Record<string, unknown>): { items: T[]; nextToken?: string } {
  const size = typeof input.maxResults === 'number' ? input.maxResults : PAGE;
  const start =
    typeof input.nextToken === 'string' ? Number(Buffer.from(input.nextToken, 'base64url').toString()) : 0;
  const slice = items.slice(start, start + size);
  const end = start + slice.length;
  return {
    items: slice,
    ...(end < items.length ? { nextToken: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

function tagStatus(input: Record<string, unknown>): string {
  const filter = input.filter as { tagStatus?: string } | undefined;
  return filter?.tagStatus ?? 'ANY';
}

export async function describeImages(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const tags = call.images.tagsOf(call.region, name);
  const all = call.images.images(call.region, name).sort((a, b) => a.pushedAt - b.pushedAt);
  const ids = imageIds(call.input);
  let selected: ImageRecord[];
  if (ids.length > 0) {
    selected = ids.map((id) => {
      const found = lookup(call, name, id);
      if ('failureCode' in found)
        throw ecrErrors.imageNotFound(describeId(id), name, call.repositories.registryId);
      return all.find((image) => image.digest === found.digest)!;
    });
  } else {
    const status = tagStatus(call.input);
    selected = all.filter((image) => {
      const tagged = (tags.get(image.digest) ?? []).length > 0;
      return status === 'ANY' || (status === 'TAGGED') === tagged;
    });
  }
  const result = page(selected, call.input);
  return {
    imageDetails: result.items.map((image) => detail(call, name, image, tags.get(image.digest) ?? [])),
    ...(result.nextToken ? { nextToken: result.nextToken } : {}),
  };
}

export async function listImages(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const tags = call.images.tagsOf(call.region, name);
  const status = tagStatus(call.input);
  const ids = call.images
    .images(call.region, name)
    .sort((a, b) => a.pushedAt - b.pushedAt)
    .flatMap((image): ImageId[] => {
      const names = tags.get(image.digest) ?? [];
      if (names.length === 0) return status === 'TAGGED' ? [] : [{ imageDigest: image.digest }];
      return status === 'UNTAGGED' ? [] : names.map((tag) => ({ imageDigest: image.digest, imageTag: tag }));
    });
  const result = page(ids, call.input);
  return { imageIds: result.items, ...(result.nextToken ? { nextToken: result.nextToken } : {}) };
}

/**
 * Runs `act` on each image id the call names that the repository holds, in order; the
 * failures (ids it does not hold, and what `act` reports) as the Batch calls list them.
 */
async function forEachImage(
  call: EcrCall,
  name: string,
  act: (id: ImageId, digest: string) => Promise<ImageFailure | undefined>,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const id of imageIds(call.input)) {
    const found = lookup(call, name, id);
    const failure = 'failureCode' in found ? found : await act(id, found.digest);
    if (failure) failures.push({ imageId: id, ...failure });
  }
  return failures;
}

export async function batchGetImage(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const images: unknown[] = [];
  const failures = await forEachImage(call, name, async (id, digest) => {
    const manifest = await call.images.manifest(call.region, name, digest);
    images.push({
      registryId: call.repositories.registryId,
      repositoryName: name,
      imageId: { imageDigest: digest, ...(id.imageTag !== undefined ? { imageTag: id.imageTag } : {}) },
      imageManifest: manifest.bytes.toString('utf8'),
      imageManifestMediaType: manifest.mediaType,
    });
    return undefined;
  });
  return { images, failures };
}

/** By digest: the image and its tags go. By tag: the tag goes, and the image with its last tag. */
export async function batchDeleteImage(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const deleted: ImageId[] = [];
  const failures = await forEachImage(call, name, async (id, digest) => {
    const tags = call.images.tagsOf(call.region, name).get(digest) ?? [];
    try {
      if (id.imageDigest === undefined && tags.length > 1) {
        await call.images.untag(call.region, name, id.imageTag!);
        deleted.push({ imageDigest: digest, imageTag: id.imageTag! });
      } else {
        await call.images.deleteImage(call.region, name, digest);
        deleted.push(
          ...(tags.length > 0
            ? tags.map((tag) => ({ imageDigest: digest, imageTag: tag }))
            : [{ imageDigest: digest }]),
        );
      }
      return undefined;
    } catch (error) {
      if (!(error instanceof ImageStoreError) || error.failure !== 'ReferencedByIndex') throw error;
      return { failureCode: 'ImageReferencedByManifestList', failureReason: error.message };
    }
  });
  return { imageIds: deleted, failures };
}

export async function putImage(call: EcrCall): Promise<unknown> {
  const name = namedRepository(call);
  const manifest = requiredString(call.input, 'imageManifest', 'InvalidParameterException');
  const tag = typeof call.input.imageTag === 'string' ? call.input.imageTag : undefined;
  const expected = typeof call.input.imageDigest === 'string' ? call.input.imageDigest : undefined;
  const mediaType =
    typeof call.input.imageManifestMediaType === 'string' ? call.input.imageManifestMediaType : undefined;
  const registryId = call.repositories.registryId;
  const bytes = Buffer.from(manifest, 'utf8');
  if (expected !== undefined && expected !== sha256Digest(bytes)) {
    throw ecrErrors.digestMismatch(
      `Invalid parameter at 'ImageDigest' failed to satisfy constraint: 'Image digest ${expected} does not match the manifest's digest ${sha256Digest(bytes)}'`,
    );
  }
  let result;
  try {
    result = await call.images.putManifest(call.region, name, bytes, {
      ...(mediaType ? { contentType: mediaType } : {}),
      ...(tag !== undefined ? { reference: tag } : {}),
      immutableTags: call.repositories.get(call.region, name).ImageTagMutability === 'IMMUTABLE',
    });
  } catch (error) {
    throw putImageError(error, name, registryId);
  }
  if (!result.changed) throw ecrErrors.imageExists(result.digest, tag ?? '', name, registryId);
  const stored = await call.images.manifest(call.region, name, result.digest);
  return {
    image: {
      registryId,
      repositoryName: name,
      imageId: { imageDigest: result.digest, ...(tag !== undefined ? { imageTag: tag } : {}) },
      imageManifest: manifest,
      imageManifestMediaType: stored.mediaType,
    },
  };
}

function putImageError(error: unknown, name: string, registryId: string): unknown {
  if (!(error instanceof ImageStoreError)) return error;
  switch (error.failure) {
    case 'BlobUnknown':
      return ecrErrors.layersNotFound([error.subject ?? ''], name, registryId);
    case 'ManifestUnknown':
      return ecrErrors.referencedImagesNotFound(
        `Some of the referenced images: [${error.subject}] were not found in the repository with name '${name}' in the registry with id '${registryId}'`,
      );
    case 'TagImmutable':
      return ecrErrors.imageTagExists(error.message);
    default:
      return ecrErrors.invalidParameter(
        `Invalid parameter at 'imageManifest' failed to satisfy constraint: '${error.message}'`,
      );
  }
}

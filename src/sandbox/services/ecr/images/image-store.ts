import type { Storage } from '../../../storage/storage.js';
import type { BlobStore } from './blob-store.js';
import { isDigest, sha256Digest } from './digests.js';
import { ManifestProblem, parseManifest } from './manifests.js';

const NAMESPACE = 'ecr/images';
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;

/** One manifest a repository holds. */
export interface ImageRecord {
  digest: string;
  mediaType: string;
  /** The config's media type (ECR's artifactMediaType); absent for an index. */
  artifactMediaType?: string;
  /** The config and layers' sizes (an index: its own size). */
  sizeInBytes: number;
  /** Epoch ms. */
  pushedAt: number;
  /** The config and layer digests of an image; the manifest digests of an index. */
  references: string[];
}

interface RepositoryImages {
  region: string;
  name: string;
  images: Record<string, ImageRecord>;
  tags: Record<string, string>;
  /** Blobs pushed or mounted into the repository: what it may serve and manifests may name. */
  blobs: string[];
}

export type ImageFailure =
  | 'ManifestInvalid'
  | 'BlobUnknown'
  | 'ManifestUnknown'
  | 'DigestMismatch'
  | 'TagInvalid'
  | 'TagImmutable'
  | 'ReferencedByIndex';

/** Why the store refused: each caller (registry protocol, ECR API) renders it in its own terms. */
export class ImageStoreError extends Error {
  constructor(
    readonly failure: ImageFailure,
    message: string,
    /** The digest or tag the failure is about. */
    readonly subject?: string,
  ) {
    super(message);
  }
}

export interface StoredManifest {
  digest: string;
  mediaType: string;
  bytes: Buffer;
}

/**
 * The images of every repository: manifests by digest, tags, and the blobs each repository
 * holds. A manifest's bytes are kept as a blob like any other content, so its digest is the
 * one the registry computed. The repository itself lives where Cloud Control keeps it;
 * callers check it exists before they come here.
 */
export class ImageStore {
  private readonly repositories = new Map<string, RepositoryImages>();

  private constructor(
    private readonly storage: Storage,
    readonly blobs: BlobStore,
  ) {}

  static async load(storage: Storage, blobs: BlobStore): Promise<ImageStore> {
    const store = new ImageStore(storage, blobs);
    for (const { id, doc } of await storage.listDocuments<RepositoryImages>(NAMESPACE))
      store.repositories.set(id, doc);
    return store;
  }

  images(region: string, name: string): ImageRecord[] {
    return Object.values(this.repositories.get(key(region, name))?.images ?? {});
  }

  /** Tags per image digest. */
  tagsOf(region: string, name: string): Map<string, string[]> {
    const byDigest = new Map<string, string[]>();
    const tags = this.repositories.get(key(region, name))?.tags ?? {};
    for (const [tag, digest] of Object.entries(tags).sort(([a], [b]) => a.localeCompare(b))) {
      byDigest.set(digest, [...(byDigest.get(digest) ?? []), tag]);
    }
    return byDigest;
  }

  tags(region: string, name: string): string[] {
    return Object.keys(this.repositories.get(key(region, name))?.tags ?? {}).sort();
  }

  isEmpty(region: string, name: string): boolean {
    return this.images(region, name).length === 0;
  }

  hasBlob(region: string, name: string, digest: string): boolean {
    return (
      this.repositories.get(key(region, name))?.blobs.includes(digest) === true && this.blobs.has(digest)
    );
  }

  /** Makes a stored blob part of the repository (a finished upload, a mount from another repository). */
  async linkBlob(region: string, name: string, digest: string): Promise<void> {
    const repository = this.repository(region, name);
    if (repository.blobs.includes(digest)) return;
    repository.blobs.push(digest);
    await this.save(repository);
  }

  /** The digest a tag or digest reference names, if the repository holds it. */
  resolve(region: string, name: string, reference: string): string | undefined {
    const repository = this.repositories.get(key(region, name));
    const digest = isDigest(reference) ? reference : repository?.tags[reference];
    return digest !== undefined && repository?.images[digest] ? digest : undefined;
  }

  async manifest(region: string, name: string, reference: string): Promise<StoredManifest> {
    const digest = this.resolve(region, name, reference);
    if (!digest) throw new ImageStoreError('ManifestUnknown', `manifest unknown: ${reference}`, reference);
    const image = this.repositories.get(key(region, name))!.images[digest]!;
    return { digest, mediaType: image.mediaType, bytes: await this.blobs.read(digest) };
  }

  /**
   * Stores a manifest and, when `reference` is a tag, points the tag at it. Every blob an
   * image names must be in the repository, every manifest an index names too. Returns its
   * digest and whether anything changed (the same manifest under the same tag is no change).
   */
  async putManifest(
    region: string,
    name: string,
    bytes: Buffer,
    options: { contentType?: string; reference?: string; immutableTags?: boolean },
  ): Promise<{ digest: string; changed: boolean }> {
    const digest = sha256Digest(bytes);
    const reference = options.reference;
    if (reference !== undefined && isDigest(reference) && reference !== digest) {
      throw new ImageStoreError(
        'DigestMismatch',
        `the manifest's digest ${digest} does not match the reference ${reference}`,
        reference,
      );
    }
    const tag = reference !== undefined && !isDigest(reference) ? reference : undefined;
    if (tag !== undefined && !TAG.test(tag)) {
      throw new ImageStoreError('TagInvalid', `invalid tag ${tag}: it must match ${TAG.source}`, tag);
    }
    let parsed;
    try {
      parsed = parseManifest(bytes, options.contentType);
    } catch (error) {
      if (error instanceof ManifestProblem) throw new ImageStoreError('ManifestInvalid', error.message);
      throw error;
    }
    const repository = this.repository(region, name);
    const named = parsed.kind === 'image' ? [parsed.config!, ...parsed.layers] : [];
    for (const blob of named) {
      if (!this.hasBlob(region, name, blob.digest)) {
        throw new ImageStoreError(
          'BlobUnknown',
          `blob unknown to the repository: ${blob.digest}`,
          blob.digest,
        );
      }
    }
    for (const child of parsed.manifests) {
      if (!repository.images[child.digest]) {
        throw new ImageStoreError(
          'ManifestUnknown',
          `the index names a manifest the repository does not hold: ${child.digest}`,
          child.digest,
        );
      }
    }
    const current = tag !== undefined ? repository.tags[tag] : undefined;
    if (tag !== undefined && options.immutableTags && current !== undefined && current !== digest) {
      throw new ImageStoreError(
        'TagImmutable',
        `The image tag '${tag}' already exists in the '${name}' repository and cannot be overwritten because the repository is immutable.`,
        tag,
      );
    }
    const known = repository.images[digest] !== undefined;
    if (known && (tag === undefined || current === digest)) return { digest, changed: false };
    if (!known) {
      await this.blobs.put(bytes);
      repository.images[digest] = {
        digest,
        mediaType: parsed.mediaType,
        ...(parsed.config ? { artifactMediaType: parsed.config.mediaType } : {}),
        sizeInBytes: parsed.kind === 'image' ? named.reduce((sum, blob) => sum + blob.size, 0) : bytes.length,
        pushedAt: Date.now(),
        references:
          parsed.kind === 'image' ? named.map((blob) => blob.digest) : parsed.manifests.map((m) => m.digest),
      };
    }
    if (tag !== undefined) repository.tags[tag] = digest;
    await this.save(repository);
    return { digest, changed: true };
  }

  /** Removes a tag; its image stays. */
  async untag(region: string, name: string, tag: string): Promise<void> {
    const repository = this.repository(region, name);
    if (repository.tags[tag] === undefined)
      throw new ImageStoreError('ManifestUnknown', `tag unknown: ${tag}`, tag);
    delete repository.tags[tag];
    await this.save(repository);
  }

  /**
   * Removes an image and every tag on it (not one an index in the repository still names),
   * and the repository's blobs no remaining image names.
   */
  async deleteImage(region: string, name: string, digest: string): Promise<ImageRecord> {
    const repository = this.repository(region, name);
    const image = repository.images[digest];
    if (!image) throw new ImageStoreError('ManifestUnknown', `manifest unknown: ${digest}`, digest);
    const parent = Object.values(repository.images).find((other) => other.references.includes(digest));
    if (parent) {
      throw new ImageStoreError(
        'ReferencedByIndex',
        `Requested image ${digest} is referenced by the manifest list ${parent.digest}`,
        digest,
      );
    }
    delete repository.images[digest];
    for (const [tag, target] of Object.entries(repository.tags))
      if (target === digest) delete repository.tags[tag];
    const named = new Set(Object.values(repository.images).flatMap((other) => other.references));
    repository.blobs = repository.blobs.filter((blob) => named.has(blob));
    await this.save(repository);
    await this.collect();
    return image;
  }

  /** Removes everything the repository holds (its repository is being deleted). */
  async purge(region: string, name: string): Promise<void> {
    const id = key(region, name);
    if (!this.repositories.delete(id)) return;
    await this.storage.deleteDocument(NAMESPACE, id);
    await this.collect();
  }

  /** Every repository with its images, for the inventory. */
  all(): Array<{ region: string; name: string; images: ImageRecord[]; tags: Map<string, string[]> }> {
    return [...this.repositories.values()].map((repository) => ({
      region: repository.region,
      name: repository.name,
      images: Object.values(repository.images),
      tags: this.tagsOf(repository.region, repository.name),
    }));
  }

  /** Blobs no repository holds and no image is made of are removed. */
  private collect(): Promise<void> {
    return this.blobs.collect((digest) =>
      [...this.repositories.values()].some(
        (repository) => repository.blobs.includes(digest) || repository.images[digest] !== undefined,
      ),
    );
  }

  private repository(region: string, name: string): RepositoryImages {
    const id = key(region, name);
    let repository = this.repositories.get(id);
    if (!repository)
      this.repositories.set(id, (repository = { region, name, images: {}, tags: {}, blobs: [] }));
    return repository;
  }

  private save(repository: RepositoryImages): Promise<void> {
    return this.storage.putDocument(NAMESPACE, key(repository.region, repository.name), repository);
  }
}

function key(region: string, name: string): string {
  return `${region}/${name}`;
}

import type { EcrImage, EcrImageFailure, EcrImageReader, ImageRunConfig } from '../../ports/index.js';
import type { ImageStore } from './images/image-store.js';
import { parseManifest } from './images/manifests.js';
import type { RegistryTokens } from './registry/tokens.js';
import type { Repositories } from './repositories.js';

const IMAGE_URI =
  /^\d{12}\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/([a-z0-9._/-]+?)(?::([a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$/;

/** Lambda's view of the registry: an ImageUri to the image it names, and credentials to pull it. */
export function imageReader(
  repositories: Repositories,
  images: ImageStore,
  tokens: RegistryTokens,
): EcrImageReader {
  return {
    async resolve(imageUri, architecture): Promise<EcrImage | EcrImageFailure> {
      const match = IMAGE_URI.exec(imageUri);
      if (!match || (match[3] === undefined && match[4] === undefined)) return 'invalid';
      const [, region, repository, tag, pinned] = match as unknown as [
        string,
        string,
        string,
        string?,
        string?,
      ];
      if (!repositories.list(region).some((model) => model.RepositoryName === repository)) return 'not-found';
      const digest = images.resolve(region, repository, pinned ?? tag!);
      if (digest === undefined) return 'not-found';
      const image = await platformImage(images, region, repository, digest, architecture);
      if (!image) return 'not-found';
      const config = JSON.parse((await images.blobs.read(image.configDigest)).toString('utf8')) as {
        config?: ImageRunConfig;
      };
      return { region, repository, digest, sizeInBytes: image.size, config: config.config ?? {} };
    },
    pullCredentials(accountId, region) {
      const decoded = Buffer.from(tokens.issue(accountId, region).token, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    },
  };
}

/** The image manifest for the platform: the manifest itself, or the index entry for linux/`architecture`. */
async function platformImage(
  images: ImageStore,
  region: string,
  repository: string,
  digest: string,
  architecture: string,
): Promise<{ configDigest: string; size: number } | undefined> {
  const stored = await images.manifest(region, repository, digest);
  const parsed = parseManifest(stored.bytes, stored.mediaType);
  if (parsed.kind === 'image') {
    return {
      configDigest: parsed.config!.digest,
      size: parsed.layers.reduce((sum, layer) => sum + layer.size, 0),
    };
  }
  const document = JSON.parse(stored.bytes.toString('utf8')) as {
    manifests: Array<{ digest: string; platform?: { os?: string; architecture?: string } }>;
  };
  const entry = document.manifests.find(
    (candidate) => candidate.platform?.os === 'linux' && candidate.platform.architecture === architecture,
  );
  return entry ? platformImage(images, region, repository, entry.digest, architecture) : undefined;
}

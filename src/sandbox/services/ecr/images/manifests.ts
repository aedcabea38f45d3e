import { isDigest } from './digests.js';

export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

const IMAGE_TYPES = new Set([DOCKER_MANIFEST, OCI_MANIFEST]);
const INDEX_TYPES = new Set([DOCKER_MANIFEST_LIST, OCI_INDEX]);

/** The media types the registry stores: Docker v2 schema 2 and its list, OCI manifests and indexes. */
export const MANIFEST_TYPES: readonly string[] = [
  DOCKER_MANIFEST,
  DOCKER_MANIFEST_LIST,
  OCI_MANIFEST,
  OCI_INDEX,
];

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

/** A manifest as pushed: what it is and the content it names. */
export interface ParsedManifest {
  mediaType: string;
  /** An image (config and layers) or an index of manifests. */
  kind: 'image' | 'index';
  config?: Descriptor;
  layers: Descriptor[];
  /** An index's manifests. */
  manifests: Descriptor[];
}

/** Why a manifest was refused, in words the registry's MANIFEST_INVALID carries. */
export class ManifestProblem extends Error {}

/**
 * Reads a pushed manifest: its media type from the request's Content-Type or, absent that,
 * the document's own `mediaType` (the two must agree when both are given).
 */
export function parseManifest(bytes: Buffer, contentType: string | undefined): ParsedManifest {
  let document: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    document = parsed as Record<string, unknown>;
  } catch {
    throw new ManifestProblem('the manifest is not a JSON object');
  }
  const declared = typeof document.mediaType === 'string' ? document.mediaType : undefined;
  const sent = contentType?.split(';')[0]?.trim() || undefined;
  const mediaType = sent && sent !== 'application/json' ? sent : declared;
  if (!mediaType || !MANIFEST_TYPES.includes(mediaType)) {
    throw new ManifestProblem(
      `unsupported manifest media type ${mediaType ?? '(none)'}; the registry stores ${MANIFEST_TYPES.join(', ')}`,
    );
  }
  if (declared !== undefined && declared !== mediaType) {
    throw new ManifestProblem(
      `the manifest's mediaType ${declared} does not match the Content-Type ${mediaType}`,
    );
  }
  if (document.schemaVersion !== 2) throw new ManifestProblem('schemaVersion must be 2');
  if (IMAGE_TYPES.has(mediaType)) {
    if (!Array.isArray(document.layers)) throw new ManifestProblem('an image manifest needs a layers list');
    return {
      mediaType,
      kind: 'image',
      config: descriptor(document.config, 'config'),
      layers: document.layers.map((layer, at) => descriptor(layer, `layers[${at}]`)),
      manifests: [],
    };
  }
  if (!INDEX_TYPES.has(mediaType) || !Array.isArray(document.manifests)) {
    throw new ManifestProblem('an index needs a manifests list');
  }
  return {
    mediaType,
    kind: 'index',
    layers: [],
    manifests: document.manifests.map((entry, at) => descriptor(entry, `manifests[${at}]`)),
  };
}

function descriptor(value: unknown, where: string): Descriptor {
  const entry = (value ?? {}) as Record<string, unknown>;
  const { mediaType, digest, size } = entry;
  if (typeof digest !== 'string' || !isDigest(digest)) {
    throw new ManifestProblem(`${where} has no valid sha256 digest`);
  }
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
    throw new ManifestProblem(`${where} has no valid size`);
  }
  return { mediaType: typeof mediaType === 'string' ? mediaType : '', digest, size };
}

import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { ECRClient, GetAuthorizationTokenCommand } from '@aws-sdk/client-ecr';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';

export function ecrClient(sandbox: Sandbox, region = 'us-east-1'): ECRClient {
  return new ECRClient({
    endpoint: sandbox.url,
    region,
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
}

export function digestOf(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A sandbox on a free port with an ECR client and the registry's Authorization header for us-east-1. */
export async function startRegistrySandbox(): Promise<{ sandbox: Sandbox; ecr: ECRClient; auth: string }> {
  const sandbox = await startSandbox({ port: 0 });
  const ecr = ecrClient(sandbox);
  return { sandbox, ecr, auth: (await registryLogin(ecr)).authorization };
}

/** GetAuthorizationToken's token as `docker login` takes it, and the header a client sends. */
export async function registryLogin(
  ecr: ECRClient,
): Promise<{ username: string; password: string; authorization: string }> {
  const data = (await ecr.send(new GetAuthorizationTokenCommand({}))).authorizationData![0]!;
  const decoded = Buffer.from(data.authorizationToken!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return {
    username: decoded.slice(0, colon),
    password: decoded.slice(colon + 1),
    authorization: `Basic ${data.authorizationToken!}`,
  };
}

export interface RegistryAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body as JSON, or undefined when it is not JSON (asserted field by field in the tests). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One plain-HTTP request to the sandbox's port, with any Host header (node's fetch will not send one). */
export function registryCall(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: {
    authorization?: string;
    host?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
  } = {},
): Promise<RegistryAnswer> {
  const url = new URL(path, sandbox.url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {
    ...options.headers,
    ...(options.authorization ? { authorization: options.authorization } : {}),
    ...(options.host ? { host: options.host } : {}),
    ...(body ? { 'content-length': String(body.length) } : {}),
  };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(bytes.toString('utf8'));
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: bytes, json });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A FROM-scratch image assembled in memory: one gzipped tar layer, its config, its manifest. */
export interface ScratchImage {
  layer: Buffer;
  config: Buffer;
  manifest: Buffer;
  mediaType: string;
}

export function scratchImage(
  files: Record<string, string | Buffer>,
  options: { mediaType?: string; entrypoint?: string[]; cmd?: string[]; architecture?: string } = {},
): ScratchImage {
  const tar = tarOf(files);
  const layer = gzipSync(tar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: options.architecture ?? 'amd64',
      os: 'linux',
      config: {
        Entrypoint: options.entrypoint ?? ['/bootstrap'],
        ...(options.cmd ? { Cmd: options.cmd } : {}),
        Env: ['PATH=/'],
      },
      rootfs: { type: 'layers', diff_ids: [digestOf(tar)] },
    }),
  );
  const mediaType = options.mediaType ?? OCI_MANIFEST;
  const docker = mediaType === DOCKER_MANIFEST;
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType,
      config: {
        mediaType: docker
          ? 'application/vnd.docker.container.image.v1+json'
          : 'application/vnd.oci.image.config.v1+json',
        digest: digestOf(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: docker
            ? 'application/vnd.docker.image.rootfs.diff.tar.gzip'
            : 'application/vnd.oci.image.layer.v1.tar+gzip',
          digest: digestOf(layer),
          size: layer.length,
        },
      ],
    }),
  );
  return { layer, config, manifest, mediaType };
}

/** An index naming manifests (with their platforms). */
export function indexOf(
  entries: Array<{ image: ScratchImage; architecture: string }>,
  mediaType = OCI_INDEX,
): Buffer {
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType,
      manifests: entries.map(({ image, architecture }) => ({
        mediaType: image.mediaType,
        digest: digestOf(image.manifest),
        size: image.manifest.length,
        platform: { os: 'linux', architecture },
      })),
    }),
  );
}

/** A ustar archive of regular files (mode 0755), enough for a FROM-scratch layer. */
function tarOf(files: Record<string, string | Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write('0000755\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(
      `${Math.floor(Date.UTC(2026, 0, 1) / 1000)
        .toString(8)
        .padStart(11, '0')}\0`,
      136,
    );
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** Pushes an image's blobs (monolithic POST) and its manifest under `reference` over the registry protocol. */
export async function pushImage(
  sandbox: Sandbox,
  authorization: string,
  repository: string,
  image: ScratchImage,
  reference: string,
): Promise<string> {
  for (const blob of [image.layer, image.config]) {
    const answer = await registryCall(
      sandbox,
      'POST',
      `/v2/${repository}/blobs/uploads/?digest=${encodeURIComponent(digestOf(blob))}`,
      { authorization, body: blob, headers: { 'content-type': 'application/octet-stream' } },
    );
    if (answer.status !== 201)
      throw new Error(`blob push answered ${answer.status}: ${answer.body.toString()}`);
  }
  const put = await registryCall(sandbox, 'PUT', `/v2/${repository}/manifests/${reference}`, {
    authorization,
    body: image.manifest,
    headers: { 'content-type': image.mediaType },
  });
  if (put.status !== 201) throw new Error(`manifest push answered ${put.status}: ${put.body.toString()}`);
  return String(put.headers['docker-content-digest']);
}

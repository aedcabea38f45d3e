import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateRepositoryCommand, DescribeImagesCommand, type ECRClient } from '@aws-sdk/client-ecr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import {
  digestOf,
  ecrClient,
  registryCall,
  registryLogin,
  scratchImage,
  type ScratchImage,
} from './registry-helpers.js';

// The sandbox answers in this process: the client must run without blocking the event loop.
const run = promisify(execFile);
const skopeo = spawnSync('skopeo', ['--version']).status === 0;
const podman = spawnSync('podman', ['--version']).status === 0;

let sandbox: Sandbox;
let ecr: ECRClient;
let work: string;

beforeAll(async () => {
  if (!skopeo && !podman) return;
  sandbox = await startSandbox({ port: 0 });
  ecr = ecrClient(sandbox);
  work = mkdtempSync(join(tmpdir(), 'cdkd-skopeo-'));
});
afterAll(async () => {
  if (!skopeo && !podman) return;
  ecr.destroy();
  await sandbox.stop();
  rmSync(work, { recursive: true, force: true });
});

/** An OCI image layout on disk holding `image` under `tag`, as `buildah push oci:` writes one. */
function ociLayout(dir: string, image: ScratchImage, tag: string): void {
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  for (const blob of [image.layer, image.config, image.manifest]) {
    writeFileSync(join(dir, 'blobs', 'sha256', digestOf(blob).slice('sha256:'.length)), blob);
  }
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: image.mediaType,
          digest: digestOf(image.manifest),
          size: image.manifest.length,
          annotations: { 'org.opencontainers.image.ref.name': tag },
        },
      ],
    }),
  );
}

describe.skipIf(!skopeo)(
  `a real registry client (skopeo) against the sandbox ECR${skopeo ? '' : ' (skipped: skopeo is not installed; .ci/run installs it with apt)'}`,
  () => {
    it('copies a FROM-scratch OCI image in with the GetAuthorizationToken credentials, and back out byte for byte', async () => {
      await ecr.send(new CreateRepositoryCommand({ repositoryName: 'clients/skopeo' }));
      const { password } = await registryLogin(ecr);
      const image = scratchImage({ bootstrap: '#!/bin/sh\necho from scratch\n' });
      const source = join(work, 'source');
      ociLayout(source, image, 'v1');
      const registry = `127.0.0.1:${new URL(sandbox.url).port}`;
      const target = `docker://${registry}/clients/skopeo:v1`;

      const refused = await run('skopeo', [
        'copy',
        '--dest-tls-verify=false',
        '--dest-creds',
        'AWS:wrong',
        `oci:${source}:v1`,
        target,
      ]).catch((error: { stderr: string }) => error);
      expect('stderr' in refused ? refused.stderr : '').toMatch(/unauthorized|authentication required/i);

      await run('skopeo', [
        'copy',
        '--dest-tls-verify=false',
        '--dest-creds',
        `AWS:${password}`,
        `oci:${source}:v1`,
        target,
      ]);
      const described = await ecr.send(new DescribeImagesCommand({ repositoryName: 'clients/skopeo' }));
      expect(described.imageDetails!.map((detail) => [detail.imageTags, detail.imageDigest])).toEqual([
        [['v1'], digestOf(image.manifest)],
      ]);

      const inspected = JSON.parse(
        (await run('skopeo', ['inspect', '--tls-verify=false', '--creds', `AWS:${password}`, target])).stdout,
      ) as { Digest: string; Layers: string[]; RepoTags: string[] };
      expect(inspected).toMatchObject({
        Digest: digestOf(image.manifest),
        Layers: [digestOf(image.layer)],
        RepoTags: ['v1'],
      });

      const copy = join(work, 'copy');
      await run('skopeo', [
        'copy',
        '--src-tls-verify=false',
        '--src-creds',
        `AWS:${password}`,
        target,
        `oci:${copy}:v1`,
      ]);
      expect(
        readFileSync(join(copy, 'blobs', 'sha256', digestOf(image.layer).slice('sha256:'.length))),
      ).toEqual(image.layer);
      expect(
        readFileSync(join(copy, 'blobs', 'sha256', digestOf(image.manifest).slice('sha256:'.length))),
      ).toEqual(image.manifest);
    });
  },
);

describe.skipIf(!podman)(
  `a real container engine (podman) pushing to the sandbox ECR${podman ? '' : ' (skipped: podman is not installed; apt-get install podman)'}`,
  () => {
    it('pushes a FROM-scratch image it built, in OCI and in Docker v2 schema 2 form', async () => {
      await ecr.send(new CreateRepositoryCommand({ repositoryName: 'clients/podman' }));
      const { password } = await registryLogin(ecr);
      // Storage of its own under the test's directory, so nothing is left in the machine's.
      const storage = [
        '--root',
        join(work, 'podman-root'),
        '--runroot',
        join(work, 'podman-run'),
        '--storage-driver',
        'vfs',
      ];
      const context = join(work, 'podman-context');
      mkdirSync(context);
      writeFileSync(join(context, 'bootstrap'), '#!/bin/sh\necho built by podman\n', { mode: 0o755 });
      writeFileSync(
        join(context, 'Containerfile'),
        'FROM scratch\nCOPY bootstrap /bootstrap\nENTRYPOINT ["/bootstrap"]\n',
      );
      const reference = `127.0.0.1:${new URL(sandbox.url).port}/clients/podman`;
      await run('podman', [...storage, 'build', '--quiet', '--tag', `${reference}:oci`, context]);
      await run('podman', [
        ...storage,
        'push',
        '--tls-verify=false',
        '--creds',
        `AWS:${password}`,
        `${reference}:oci`,
      ]);
      await run('podman', [
        ...storage,
        'push',
        '--tls-verify=false',
        '--creds',
        `AWS:${password}`,
        '--format',
        'v2s2',
        `${reference}:oci`,
        `docker://${reference}:docker`,
      ]);
      const described = await ecr.send(new DescribeImagesCommand({ repositoryName: 'clients/podman' }));
      const byTag = Object.fromEntries(
        described.imageDetails!.map((detail) => [detail.imageTags![0]!, detail.imageManifestMediaType]),
      );
      expect(byTag).toEqual({
        oci: 'application/vnd.oci.image.manifest.v1+json',
        docker: 'application/vnd.docker.distribution.manifest.v2+json',
      });
      const manifest = await registryCall(sandbox, 'GET', '/v2/clients/podman/manifests/docker', {
        authorization: `Basic ${Buffer.from(`AWS:${password}`).toString('base64')}`,
      });
      const config = await registryCall(
        sandbox,
        'GET',
        `/v2/clients/podman/blobs/${manifest.json.config.digest}`,
        {
          authorization: `Basic ${Buffer.from(`AWS:${password}`).toString('base64')}`,
        },
      );
      expect(config.json.config.Entrypoint).toEqual(['/bootstrap']);
    });
  },
);

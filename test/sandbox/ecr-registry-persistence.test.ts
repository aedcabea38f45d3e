import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateRepositoryCommand, DescribeImagesCommand } from '@aws-sdk/client-ecr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import {
  digestOf,
  ecrClient,
  pushImage,
  registryCall,
  registryLogin,
  scratchImage,
} from './registry-helpers.js';

describe('the sandbox ECR registry across a restart', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cdkd-registry-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps images, blobs and the tokens it issued', async () => {
    const first = await startSandbox({ port: 0, dataDir });
    const ecr = ecrClient(first);
    await ecr.send(new CreateRepositoryCommand({ repositoryName: 'kept' }));
    const { authorization } = await registryLogin(ecr);
    const image = scratchImage({ bootstrap: 'kept' });
    await pushImage(first, authorization, 'kept', image, 'v1');
    ecr.destroy();
    await first.stop();

    const second = await startSandbox({ port: 0, dataDir });
    const again = ecrClient(second);
    try {
      const manifest = await registryCall(second, 'GET', '/v2/kept/manifests/v1', { authorization });
      expect(manifest.status).toBe(200);
      expect(manifest.body).toEqual(image.manifest);
      const layer = await registryCall(second, 'GET', `/v2/kept/blobs/${digestOf(image.layer)}`, {
        authorization,
      });
      expect(layer.body).toEqual(image.layer);
      const described = await again.send(new DescribeImagesCommand({ repositoryName: 'kept' }));
      expect(described.imageDetails!.map((detail) => detail.imageTags)).toEqual([['v1']]);
    } finally {
      again.destroy();
      await second.stop();
    }
  });
});

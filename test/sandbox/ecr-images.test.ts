import {
  CreateResourceCommand,
  DeleteResourceCommand,
  UpdateResourceCommand,
} from '@aws-sdk/client-cloudcontrol';
import {
  BatchCheckLayerAvailabilityCommand,
  BatchDeleteImageCommand,
  BatchGetImageCommand,
  CompleteLayerUploadCommand,
  CreateRepositoryCommand,
  DeleteRepositoryCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  InitiateLayerUploadCommand,
  ListImagesCommand,
  PutImageCommand,
  UploadLayerPartCommand,
  type ECRClient,
} from '@aws-sdk/client-ecr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, settle } from './helpers.js';
import {
  digestOf,
  pushImage,
  registryCall,
  startRegistrySandbox,
  scratchImage,
  type ScratchImage,
} from './registry-helpers.js';

let sandbox: Sandbox;
let ecr: ECRClient;
let auth: string;

beforeAll(async () => {
  ({ sandbox, ecr, auth } = await startRegistrySandbox());
});
afterAll(async () => {
  ecr.destroy();
  await sandbox.stop();
});

async function repository(repositoryName: string): Promise<string> {
  await ecr.send(new CreateRepositoryCommand({ repositoryName }));
  return repositoryName;
}

/** Pushes a blob through InitiateLayerUpload / UploadLayerPart (in two parts) / CompleteLayerUpload. */
async function uploadLayer(repositoryName: string, blob: Buffer): Promise<void> {
  const { uploadId, partSize } = await ecr.send(new InitiateLayerUploadCommand({ repositoryName }));
  expect(partSize).toBeGreaterThan(0);
  const half = Math.floor(blob.length / 2);
  for (const [first, part] of [
    [0, blob.subarray(0, half)],
    [half, blob.subarray(half)],
  ] as const) {
    const answer = await ecr.send(
      new UploadLayerPartCommand({
        repositoryName,
        uploadId,
        partFirstByte: first,
        partLastByte: first + part.length - 1,
        layerPartBlob: part,
      }),
    );
    expect(answer.lastByteReceived).toBe(first + part.length - 1);
  }
  const done = await ecr.send(
    new CompleteLayerUploadCommand({ repositoryName, uploadId, layerDigests: [digestOf(blob)] }),
  );
  expect(done.layerDigest).toBe(digestOf(blob));
}

async function putImage(repositoryName: string, image: ScratchImage, imageTag?: string) {
  return ecr.send(
    new PutImageCommand({
      repositoryName,
      imageManifest: image.manifest.toString('utf8'),
      imageManifestMediaType: image.mediaType,
      ...(imageTag ? { imageTag } : {}),
    }),
  );
}

describe('the ECR image API over the registry store', () => {
  it('pushes through the layer API and PutImage, and the registry serves what was pushed', async () => {
    const name = await repository('api/push');
    const image = scratchImage({ bootstrap: 'echo api' });
    const before = await ecr.send(
      new BatchCheckLayerAvailabilityCommand({
        repositoryName: name,
        layerDigests: [digestOf(image.layer), 'not-a-digest'],
      }),
    );
    expect(before.layers).toEqual([]);
    expect(before.failures).toEqual([
      {
        layerDigest: digestOf(image.layer),
        failureCode: 'MissingLayerDigest',
        failureReason: 'Could not find layer',
      },
      {
        layerDigest: 'not-a-digest',
        failureCode: 'InvalidLayerDigest',
        failureReason: 'Invalid layer digest',
      },
    ]);

    const early = await failure(putImage(name, image, 'v1'));
    expect(early.name).toBe('LayersNotFoundException');

    await uploadLayer(name, image.layer);
    await uploadLayer(name, image.config);
    const after = await ecr.send(
      new BatchCheckLayerAvailabilityCommand({ repositoryName: name, layerDigests: [digestOf(image.layer)] }),
    );
    expect(after.layers).toEqual([
      expect.objectContaining({
        layerDigest: digestOf(image.layer),
        layerAvailability: 'AVAILABLE',
        layerSize: image.layer.length,
      }),
    ]);

    const put = await putImage(name, image, 'v1');
    expect(put.image).toMatchObject({
      registryId: '000000000000',
      repositoryName: name,
      imageId: { imageDigest: digestOf(image.manifest), imageTag: 'v1' },
      imageManifestMediaType: image.mediaType,
    });
    const again = await failure(putImage(name, image, 'v1'));
    expect(again.name).toBe('ImageAlreadyExistsException');

    const served = await registryCall(sandbox, 'GET', `/v2/${name}/manifests/v1`, { authorization: auth });
    expect(served.body).toEqual(image.manifest);
    const layer = await registryCall(sandbox, 'GET', `/v2/${name}/blobs/${digestOf(image.layer)}`, {
      authorization: auth,
    });
    expect(layer.body).toEqual(image.layer);
  });

  it('refuses a layer part out of order, an unknown upload, a digest its content does not have and an existing layer', async () => {
    const name = await repository('api/layers');
    const blob = Buffer.from('some layer content');
    const { uploadId } = await ecr.send(new InitiateLayerUploadCommand({ repositoryName: name }));
    const gap = await failure(
      ecr.send(
        new UploadLayerPartCommand({
          repositoryName: name,
          uploadId,
          partFirstByte: 5,
          partLastByte: 9,
          layerPartBlob: blob.subarray(0, 5),
        }),
      ),
    );
    expect(gap.name).toBe('InvalidLayerPartException');
    const unknown = await failure(
      ecr.send(
        new CompleteLayerUploadCommand({
          repositoryName: name,
          uploadId: 'nope',
          layerDigests: [digestOf(blob)],
        }),
      ),
    );
    expect(unknown.name).toBe('UploadNotFoundException');
    const empty = await failure(
      ecr.send(
        new CompleteLayerUploadCommand({ repositoryName: name, uploadId, layerDigests: [digestOf(blob)] }),
      ),
    );
    expect(empty.name).toBe('EmptyUploadException');

    await ecr.send(
      new UploadLayerPartCommand({
        repositoryName: name,
        uploadId,
        partFirstByte: 0,
        partLastByte: blob.length - 1,
        layerPartBlob: blob,
      }),
    );
    const wrong = await failure(
      ecr.send(
        new CompleteLayerUploadCommand({
          repositoryName: name,
          uploadId,
          layerDigests: [digestOf(Buffer.from('x'))],
        }),
      ),
    );
    expect(wrong.name).toBe('InvalidLayerException');

    await uploadLayer(name, blob);
    const { uploadId: second } = await ecr.send(new InitiateLayerUploadCommand({ repositoryName: name }));
    await ecr.send(
      new UploadLayerPartCommand({
        repositoryName: name,
        uploadId: second,
        partFirstByte: 0,
        partLastByte: blob.length - 1,
        layerPartBlob: blob,
      }),
    );
    const exists = await failure(
      ecr.send(
        new CompleteLayerUploadCommand({
          repositoryName: name,
          uploadId: second,
          layerDigests: [digestOf(blob)],
        }),
      ),
    );
    expect(exists.name).toBe('LayerAlreadyExistsException');
  });

  it('describes, lists and gets images pushed over the registry, with tags and filters', async () => {
    const name = await repository('api/read');
    const tagged = scratchImage({ one: '1' });
    const untagged = scratchImage({ two: '2' });
    await pushImage(sandbox, auth, name, tagged, 'v1');
    await pushImage(sandbox, auth, name, tagged, 'latest');
    await pushImage(sandbox, auth, name, untagged, digestOf(untagged.manifest));

    const described = await ecr.send(new DescribeImagesCommand({ repositoryName: name }));
    expect(described.imageDetails).toHaveLength(2);
    const detail = described.imageDetails!.find((image) => image.imageDigest === digestOf(tagged.manifest))!;
    expect(detail).toMatchObject({
      registryId: '000000000000',
      repositoryName: name,
      imageTags: ['latest', 'v1'],
      imageSizeInBytes: tagged.layer.length + tagged.config.length,
      imageManifestMediaType: tagged.mediaType,
      artifactMediaType: 'application/vnd.oci.image.config.v1+json',
    });
    expect(detail.imagePushedAt).toBeInstanceOf(Date);
    const onlyUntagged = await ecr.send(
      new DescribeImagesCommand({ repositoryName: name, filter: { tagStatus: 'UNTAGGED' } }),
    );
    expect(onlyUntagged.imageDetails!.map((image) => image.imageDigest)).toEqual([
      digestOf(untagged.manifest),
    ]);
    const missing = await failure(
      ecr.send(new DescribeImagesCommand({ repositoryName: name, imageIds: [{ imageTag: 'nope' }] })),
    );
    expect(missing.name).toBe('ImageNotFoundException');

    const listed = await ecr.send(new ListImagesCommand({ repositoryName: name }));
    expect(listed.imageIds).toEqual(
      expect.arrayContaining([
        { imageDigest: digestOf(tagged.manifest), imageTag: 'latest' },
        { imageDigest: digestOf(tagged.manifest), imageTag: 'v1' },
        { imageDigest: digestOf(untagged.manifest) },
      ]),
    );
    const paged = await ecr.send(new ListImagesCommand({ repositoryName: name, maxResults: 2 }));
    expect(paged.imageIds).toHaveLength(2);
    const next = await ecr.send(
      new ListImagesCommand({ repositoryName: name, maxResults: 2, nextToken: paged.nextToken! }),
    );
    expect(next.imageIds).toHaveLength(1);
    expect(next.nextToken).toBeUndefined();

    const got = await ecr.send(
      new BatchGetImageCommand({
        repositoryName: name,
        imageIds: [{ imageTag: 'v1' }, { imageTag: 'gone' }, { imageDigest: 'bad' }],
      }),
    );
    expect(got.images).toEqual([
      expect.objectContaining({
        imageId: { imageDigest: digestOf(tagged.manifest), imageTag: 'v1' },
        imageManifest: tagged.manifest.toString('utf8'),
        imageManifestMediaType: tagged.mediaType,
      }),
    ]);
    expect(got.failures!.map((entry) => entry.failureCode)).toEqual(['ImageNotFound', 'InvalidImageDigest']);
  });

  it('deletes by tag (the image stays while it has other tags) and by digest, reporting what it could not', async () => {
    const name = await repository('api/delete');
    const image = scratchImage({ d: 'd' });
    await pushImage(sandbox, auth, name, image, 'a');
    await pushImage(sandbox, auth, name, image, 'b');
    const digest = digestOf(image.manifest);

    const byTag = await ecr.send(
      new BatchDeleteImageCommand({
        repositoryName: name,
        imageIds: [{ imageTag: 'a' }, { imageTag: 'zz' }],
      }),
    );
    expect(byTag.imageIds).toEqual([{ imageDigest: digest, imageTag: 'a' }]);
    expect(byTag.failures).toEqual([
      {
        imageId: { imageTag: 'zz' },
        failureCode: 'ImageNotFound',
        failureReason: 'Requested image not found',
      },
    ]);
    expect((await ecr.send(new ListImagesCommand({ repositoryName: name }))).imageIds).toEqual([
      { imageDigest: digest, imageTag: 'b' },
    ]);

    const byDigest = await ecr.send(
      new BatchDeleteImageCommand({ repositoryName: name, imageIds: [{ imageDigest: digest }] }),
    );
    expect(byDigest.imageIds).toEqual([{ imageDigest: digest, imageTag: 'b' }]);
    expect((await ecr.send(new ListImagesCommand({ repositoryName: name }))).imageIds).toEqual([]);
    expect(
      (await registryCall(sandbox, 'GET', `/v2/${name}/manifests/b`, { authorization: auth })).status,
    ).toBe(404);
  });

  it('refuses to delete a repository holding images unless forced, which removes them; the inventory shows images', async () => {
    const name = await repository('api/forced');
    const image = scratchImage({ f: 'f' });
    await pushImage(sandbox, auth, name, image, 'v1');
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(inventory.json.ecr['AWS::ECR::Image']).toContainEqual({
      id: `${name}@${digestOf(image.manifest)}`,
      region: 'us-east-1',
      repository: name,
      tags: ['v1'],
      mediaType: image.mediaType,
    });

    const refused = await failure(ecr.send(new DeleteRepositoryCommand({ repositoryName: name })));
    expect(refused.name).toBe('RepositoryNotEmptyException');
    expect(
      (await ecr.send(new DescribeRepositoriesCommand({ repositoryNames: [name] }))).repositories,
    ).toHaveLength(1);

    await ecr.send(new DeleteRepositoryCommand({ repositoryName: name, force: true }));
    const after = await admin(sandbox, 'GET', 'inventory');
    expect(
      (after.json.ecr['AWS::ECR::Image'] as Array<{ repository: string }>).filter(
        (entry) => entry.repository === name,
      ),
    ).toEqual([]);
    await repository(name);
    expect((await ecr.send(new ListImagesCommand({ repositoryName: name }))).imageIds).toEqual([]);
    expect(
      (
        await registryCall(sandbox, 'HEAD', `/v2/${name}/blobs/${digestOf(image.layer)}`, {
          authorization: auth,
        })
      ).status,
    ).toBe(404);
  });

  it('as Cloud Control does, deletes a stack repository holding images only when EmptyOnDelete is true', async () => {
    const cc = cloudControlClient(sandbox);
    const TypeName = 'AWS::ECR::Repository';
    const created = await settle(
      cc,
      (
        await cc.send(
          new CreateResourceCommand({
            TypeName,
            DesiredState: JSON.stringify({ RepositoryName: 'api/stack' }),
          }),
        )
      ).ProgressEvent!,
    );
    const Identifier = created.event.Identifier!;
    await pushImage(sandbox, auth, Identifier, scratchImage({ s: 's' }), 'v1');
    const kept = await settle(
      cc,
      (await cc.send(new DeleteResourceCommand({ TypeName, Identifier }))).ProgressEvent!,
    );
    expect(kept.event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'GeneralServiceException' });
    expect(kept.event.StatusMessage).toContain('still contains images');
    expect((await ecr.send(new ListImagesCommand({ repositoryName: Identifier }))).imageIds).toHaveLength(1);

    await settle(
      cc,
      (
        await cc.send(
          new UpdateResourceCommand({
            TypeName,
            Identifier,
            PatchDocument: JSON.stringify([{ op: 'add', path: '/EmptyOnDelete', value: true }]),
          }),
        )
      ).ProgressEvent!,
    );
    const gone = await settle(
      cc,
      (await cc.send(new DeleteResourceCommand({ TypeName, Identifier }))).ProgressEvent!,
    );
    expect(gone.event.OperationStatus).toBe('SUCCESS');
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(
      (inventory.json.ecr['AWS::ECR::Image'] as Array<{ repository: string }>).filter(
        (entry) => entry.repository === Identifier,
      ),
    ).toEqual([]);
    cc.destroy();
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ECRClient } from '@aws-sdk/client-ecr';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssetManifest, ContainerAsset, FileAsset } from '../../src/assembly/types.js';
import { newAssetRun, type AssetRun } from '../../src/assets/asset-run.js';
import { publishAssets, type AssetPublishers, type StackAssets } from '../../src/assets/publish-assets.js';
import type { AssetEvent } from '../../src/assets/publisher.js';
import { useSandbox } from '../helpers/sandbox.js';
import { admin, s3Client } from '../sandbox/helpers.js';

const REGION = 'us-east-1';
const DEFAULT_BUCKET = 'cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}';
const ZIP_HASH = 'a'.repeat(64);
const FILE_HASH = 'b'.repeat(64);
const TEMPLATE_HASH = 'c'.repeat(64);

const sandbox = useSandbox();
let s3: S3Client;
let assemblyDir: string;
// A fresh account per test gives each test its own, empty asset bucket.
let accountNumber = 100000000000;
let account: string;
let bucket: string;

beforeAll(() => {
  s3 = s3Client(sandbox.current);
});
afterAll(() => s3.destroy());

beforeEach(async () => {
  accountNumber += 1;
  account = String(accountNumber);
  bucket = `cdkd-assets-${account}-${REGION}`;
  assemblyDir = await mkdtemp(join(tmpdir(), 'cdkd-assets-'));
  await mkdir(join(assemblyDir, `asset.${ZIP_HASH}`, 'lib'), { recursive: true });
  await writeFile(join(assemblyDir, `asset.${ZIP_HASH}`, 'index.js'), 'exports.handler = 1;\n');
  await writeFile(join(assemblyDir, `asset.${ZIP_HASH}`, 'lib', 'util.js'), 'module.exports = 2;\n');
  await writeFile(join(assemblyDir, `asset.${FILE_HASH}.txt`), 'plain file\n');
  await writeFile(join(assemblyDir, 'App.template.json'), '{"Resources":{}}');
  await admin(sandbox.current, 'DELETE', 'calls');
  await admin(sandbox.current, 'DELETE', 'faults');
});
afterEach(async () => {
  await rm(assemblyDir, { recursive: true, force: true });
});

async function createBucket(): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
}

async function callCount(operation: string): Promise<number> {
  const { json } = await admin(sandbox.current, 'GET', 'calls');
  return json.calls[`s3:${operation}`]?.count ?? 0;
}

function fileAsset(
  hash: string,
  sourcePath: string,
  packaging: 'zip' | 'file',
  objectKey: string,
): FileAsset {
  return {
    hash,
    displayName: `Asset ${hash.slice(0, 4)}`,
    sourcePath,
    absoluteSourcePath: join(assemblyDir, sourcePath),
    packaging,
    destinations: [{ id: 'current_account-current_region', bucketName: DEFAULT_BUCKET, objectKey }],
  };
}

function stack(
  displayName: string,
  files: FileAsset[],
  containers: ContainerAsset[] = [],
  templateFile = join(assemblyDir, `${displayName}.template.json`),
): StackAssets {
  const manifest: AssetManifest = {
    file: join(assemblyDir, `${displayName}.assets.json`),
    files,
    containers,
  };
  return { displayName, templateFile, assetManifests: [manifest] };
}

function appStack(): StackAssets {
  return stack('App', [
    fileAsset(ZIP_HASH, `asset.${ZIP_HASH}`, 'zip', `${ZIP_HASH}.zip`),
    fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', `${FILE_HASH}.txt`),
    fileAsset(TEMPLATE_HASH, 'App.template.json', 'file', `${TEMPLATE_HASH}.json`),
  ]);
}

function imageAsset(repositoryName: string): ContainerAsset {
  return {
    hash: 'd'.repeat(64),
    displayName: 'Fn/AssetImage',
    directory: 'asset.ddd',
    absoluteDirectory: join(assemblyDir, 'asset.ddd'),
    destinations: [{ id: 'current_account-current_region', repositoryName, imageTag: 'd'.repeat(64) }],
  };
}

async function objectBytes(key: string): Promise<Uint8Array> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

describe('publishAssets', () => {
  it('uploads each asset under its key, then skips them all on the next run', async () => {
    await createBucket();
    const events: AssetEvent[] = [];
    const input = { stacks: [appStack()], accountId: account, region: REGION, s3 };

    const first = await publishAssets({ ...input, onEvent: (event) => events.push(event) });

    expect(first.bucket).toBe(bucket);
    expect(first.publications.map(({ key, action }) => [key, action])).toEqual([
      [`${ZIP_HASH}.zip`, 'uploaded'],
      [`${FILE_HASH}.txt`, 'uploaded'],
    ]);
    expect(await callCount('PutObject')).toBe(2);
    expect(strFromU8(await objectBytes(`${FILE_HASH}.txt`))).toBe('plain file\n');
    const unzipped = unzipSync(await objectBytes(`${ZIP_HASH}.zip`));
    expect(Object.keys(unzipped)).toEqual(['index.js', 'lib/util.js']);
    expect(events.map((event) => event.type)).toEqual(['uploading', 'published', 'uploading', 'published']);

    // Broken sources prove the skip neither zips nor reads: only a stat and a HeadObject.
    await rm(join(assemblyDir, `asset.${ZIP_HASH}`, 'index.js'));
    await symlink(join(assemblyDir, 'nowhere'), join(assemblyDir, `asset.${ZIP_HASH}`, 'index.js'));
    const second = await publishAssets(input);

    expect(second.publications.map(({ action }) => action)).toEqual(['skipped', 'skipped']);
    expect(await callCount('PutObject')).toBe(2);
    expect(await callCount('HeadObject')).toBe(4);
  });

  it("does not upload the stack's own template, which cdkd deploys directly", async () => {
    await createBucket();
    const result = await publishAssets({ stacks: [appStack()], accountId: account, region: REGION, s3 });
    expect(result.publications.map((p) => p.assetId)).not.toContain(TEMPLATE_HASH);
    await expect(
      s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `${TEMPLATE_HASH}.json` })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it('makes no S3 call for stacks whose only asset is their template', async () => {
    const onlyTemplate = stack('App', [fileAsset(TEMPLATE_HASH, 'App.template.json', 'file', 'k.json')]);
    const result = await publishAssets({ stacks: [onlyTemplate], accountId: account, region: REGION, s3 });
    expect(result.publications).toEqual([]);
    const { json } = await admin(sandbox.current, 'GET', 'calls');
    expect(json.total).toBe(0);
  });

  it('publishes an asset shared by two stacks once', async () => {
    await createBucket();
    const shared = () => fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', `${FILE_HASH}.txt`);
    const result = await publishAssets({
      stacks: [stack('One', [shared()]), stack('Two', [shared()])],
      accountId: account,
      region: REGION,
      s3,
    });
    expect(result.publications).toHaveLength(1);
    expect(await callCount('HeadObject')).toBe(1);
    expect(await callCount('PutObject')).toBe(1);
  });

  it('refuses a missing asset, naming the asset, path and stack, before uploading anything', async () => {
    await createBucket();
    const stacks = [
      stack('Good', [fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', `${FILE_HASH}.txt`)]),
      stack('Broken', [fileAsset(ZIP_HASH, `asset.${ZIP_HASH}.gone`, 'zip', `${ZIP_HASH}.zip`)]),
    ];
    const error = await publishAssets({ stacks, accountId: account, region: REGION, s3 }).catch((e) => e);
    expect(error).toMatchObject({ code: 'ASSET_NOT_FOUND', hint: expect.stringContaining('synth') });
    expect(error.message).toContain(ZIP_HASH);
    expect(error.message).toContain(join(assemblyDir, `asset.${ZIP_HASH}.gone`));
    expect(error.message).toContain('Broken');
    expect(await callCount('PutObject')).toBe(0);
  });

  it('refuses a zip asset whose source is a file', async () => {
    const wrong = stack('App', [fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'zip', `${FILE_HASH}.zip`)]);
    await expect(
      publishAssets({ stacks: [wrong], accountId: account, region: REGION, s3 }),
    ).rejects.toMatchObject({
      code: 'ASSET_SOURCE_MISMATCH',
    });
  });

  it('refuses a missing asset bucket, pointing at cdkd bootstrap', async () => {
    const error = await publishAssets({ stacks: [appStack()], accountId: account, region: REGION, s3 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({
      code: 'ASSET_BUCKET_NOT_FOUND',
      message: expect.stringContaining(bucket),
      hint: expect.stringContaining('cdkd bootstrap'),
    });
    expect(await callCount('PutObject')).toBe(0);
  });

  it('refuses an asset bucket that lives in another region', async () => {
    const west = s3Client(sandbox.current, { region: 'us-west-2' });
    await west.send(
      new CreateBucketCommand({
        Bucket: bucket,
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    west.destroy();
    await expect(
      publishAssets({ stacks: [appStack()], accountId: account, region: REGION, s3 }),
    ).rejects.toMatchObject({ code: 'ASSET_BUCKET_WRONG_REGION' });
  });

  it('runs a build command for an asset it produces, announcing each distinct command once', async () => {
    await createBucket();
    // Writes out.txt next to the manifest and prints its (relative) path, as an executable asset does.
    const command = ['node', '-e', "require('fs').writeFileSync('out.txt', 'built'); console.log('out.txt')"];
    const fromCommand = (hash: string, key: string): FileAsset => ({
      hash,
      packaging: 'file',
      executable: command,
      manifestDir: assemblyDir,
      destinations: [{ id: 'current_account-current_region', bucketName: DEFAULT_BUCKET, objectKey: key }],
    });
    const events: AssetEvent[] = [];
    const input = {
      stacks: [stack('App', [fromCommand(ZIP_HASH, 'one.txt'), fromCommand(FILE_HASH, 'two.txt')])],
      accountId: account,
      region: REGION,
      s3,
      concurrency: 1,
      onEvent: (event: AssetEvent) => events.push(event),
    };
    await publishAssets(input);
    expect(strFromU8(await objectBytes('one.txt'))).toBe('built');
    expect(strFromU8(await objectBytes('two.txt'))).toBe('built');
    const runs = events.filter((event) => event.type === 'build-command');
    expect(runs.map((event) => [event.assetId, event.first, event.cwd])).toEqual([
      [ZIP_HASH, true, assemblyDir],
      [FILE_HASH, false, assemblyDir],
    ]);
    // Once the keys are in the bucket, the command does not run at all.
    events.length = 0;
    await publishAssets(input);
    expect(events.filter((event) => event.type === 'build-command')).toEqual([]);
  });

  it('names the asset and the command when a build command fails', async () => {
    await createBucket();
    const failing: FileAsset = {
      hash: FILE_HASH,
      displayName: 'Fn/Code',
      packaging: 'file',
      executable: ['node', '-e', "console.error('no compiler'); process.exit(3)"],
      manifestDir: assemblyDir,
      destinations: [{ id: 'd', bucketName: DEFAULT_BUCKET, objectKey: 'x.txt' }],
    };
    const error = await publishAssets({
      stacks: [stack('App', [failing])],
      accountId: account,
      region: REGION,
      s3,
    }).catch((e) => e);
    expect(error).toMatchObject({ code: 'ASSET_BUILD_COMMAND_FAILED' });
    expect(error.message).toContain('Fn/Code');
    expect(error.message).toContain('exited with code 3');
    expect(error.message).toContain('no compiler');
    expect(await callCount('PutObject')).toBe(0);
  });

  it('says when access to the asset bucket is denied', async () => {
    await createBucket();
    await admin(sandbox.current, 'POST', 'faults', {
      service: 's3',
      operation: 'HeadBucket',
      errorCode: 'AccessDenied',
      httpStatus: 403,
    });
    await expect(
      publishAssets({ stacks: [appStack()], accountId: account, region: REGION, s3 }),
    ).rejects.toMatchObject({ code: 'ASSET_BUCKET_ACCESS_DENIED', message: expect.stringContaining(bucket) });
  });

  it('refuses an image asset bound for a repository not shaped like a bootstrap one, uploading nothing', async () => {
    await createBucket();
    const image = imageAsset('someone-elses-repo');
    const withImage = stack(
      'Images',
      [fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', 'x.txt')],
      [image],
    );
    const error = await publishAssets({ stacks: [withImage], accountId: account, region: REGION, s3 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: 'ASSET_DESTINATION_REFUSED', hint: expect.any(String) });
    expect(error.message).toContain('Fn/AssetImage');
    expect(error.message).toContain('someone-elses-repo');
    expect(await callCount('PutObject')).toBe(0);
  });

  it('names the asset, the CLI it looked for and CDK_DOCKER when no container CLI is there', async () => {
    await createBucket();
    await mkdir(join(assemblyDir, 'asset.ddd'));
    const saved = process.env.CDK_DOCKER;
    process.env.CDK_DOCKER = join(assemblyDir, 'no-such-docker');
    const ecr = new ECRClient({ region: REGION });
    try {
      const error = await publishAssets({
        stacks: [
          stack(
            'Images',
            [],
            [imageAsset('cdk-hnb659fds-container-assets-${AWS::AccountId}-${AWS::Region}')],
          ),
        ],
        accountId: account,
        region: REGION,
        s3,
        ecr: () => Promise.resolve(ecr),
      }).catch((e) => e);
      expect(error).toMatchObject({ code: 'CONTAINER_CLI_NOT_FOUND' });
      expect(error.message).toContain('Fn/AssetImage');
      expect(error.message).toContain(join(assemblyDir, 'no-such-docker'));
      expect(error.hint).toContain('CDK_DOCKER');
    } finally {
      ecr.destroy();
      if (saved === undefined) delete process.env.CDK_DOCKER;
      else process.env.CDK_DOCKER = saved;
    }
  });

  it("bounds the assets in flight across every stack of a run by the run's slots", async () => {
    await createBucket();
    let inFlight = 0;
    let most = 0;
    const counting: AssetPublishers = {
      file: {
        check: () => Promise.resolve(),
        publish: async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight -= 1;
          return [];
        },
      },
      container: { check: () => Promise.resolve(), publish: () => Promise.resolve([]) },
    };
    const twoAssets = (name: string, keys: [string, string]) =>
      stack(name, [
        fileAsset(ZIP_HASH, `asset.${ZIP_HASH}`, 'zip', keys[0]),
        fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', keys[1]),
      ]);
    const publishBoth = (run?: AssetRun) =>
      Promise.all(
        [twoAssets('A', ['a1', 'a2']), twoAssets('B', ['b1', 'b2'])].map((one) =>
          publishAssets({
            stacks: [one],
            accountId: account,
            region: REGION,
            s3,
            concurrency: 4,
            publishers: counting,
            ...(run ? { run } : {}),
          }),
        ),
      );
    await publishBoth();
    expect(most).toBe(4);
    most = 0;
    await publishBoth(newAssetRun(1));
    expect(most).toBe(1);
  });

  it('names the asset and destination when an upload fails', async () => {
    await createBucket();
    await admin(sandbox.current, 'POST', 'faults', {
      service: 's3',
      operation: 'PutObject',
      errorCode: 'InternalError',
      httpStatus: 500,
      every: true,
    });
    const error = await publishAssets({
      stacks: [stack('App', [fileAsset(FILE_HASH, `asset.${FILE_HASH}.txt`, 'file', `${FILE_HASH}.txt`)])],
      accountId: account,
      region: REGION,
      s3,
    }).catch((e) => e);
    expect(error).toMatchObject({
      code: 'ASSET_UPLOAD_FAILED',
      message: expect.stringContaining(`s3://${bucket}/${FILE_HASH}.txt`),
    });
    expect(error.message).toContain(FILE_HASH);
  });
});

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { assetKey, fileAsset } from '../helpers/file-asset.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd gc and cdkd publish-assets on the sandbox.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const s3 = () => new S3Client({ region: 'us-east-1', forcePathStyle: true });
const cdkd = (args: string[]) => runCli(args, { env: env() });

/** A stack whose parameter names one file asset holding `content`. */
function assembly(stack: string, content: string): string {
  const dir = tempDir();
  const asset = fileAsset(dir, content);
  writeAssembly(dir, [
    {
      id: stack,
      template: {
        Resources: {
          Pointer: asset.pointer,
        },
      },
      assets: asset.manifest,
    },
  ]);
  return dir;
}

async function bucketNamed(prefix: string): Promise<string> {
  const { Buckets } = await s3().send(new ListBucketsCommand({}));
  return Buckets!.map((bucket) => bucket.Name!).find((name) => name.startsWith(prefix))!;
}

async function stored(key: string): Promise<Date | undefined> {
  const bucket = await bucketNamed('cdkd-assets-');
  return s3()
    .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
    .then(
      (head) => head.LastModified,
      () => undefined,
    );
}

async function body(bucket: string, key: string): Promise<string> {
  const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return object.Body!.transformToString();
}

async function clock(change: Record<string, string>): Promise<void> {
  await fetch(`${sandbox.current.url}/_sandbox/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
}

/** An object nothing names, stored `days` ago (on the sandbox's clock). */
async function strayObject(key: string, days: number): Promise<void> {
  await clock({ set: new Date(Date.now() - days * 86_400_000).toISOString(), mode: 'running' });
  await s3().send(
    new PutObjectCommand({ Bucket: await bucketNamed('cdkd-assets-'), Key: key, Body: 'stray' }),
  );
  await clock({ mode: 'wall' });
}

beforeAll(async () => {
  expect((await cdkd(['bootstrap'])).code).toBe(0);
});

describe('cdkd gc', () => {
  it('deletes only unnamed assets past the buffer, keeping what a kept generation names', async () => {
    for (const asset of ['gc-first', 'gc-second']) {
      const deployed = await cdkd(['deploy', '-a', assembly('GcKeep', asset)]);
      expect(deployed.code, deployed.stderr).toBe(0);
    }
    await strayObject('stray-old.zip', 45);
    await strayObject('stray-new.zip', 2);

    const dry = await cdkd(['gc', '--dry-run', '--rollback-buffer-days', '0']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would delete s3://');
    expect(dry.stdout).toContain('stray-old.zip');
    expect(dry.stdout).toContain('stray-new.zip');
    // The first asset is named only by generation 1 now: kept.
    expect(dry.stdout).not.toContain(assetKey('gc-first'));
    expect(dry.stdout).not.toContain(assetKey('gc-second'));
    expect(await stored('stray-old.zip')).toBeDefined();

    const gc = await cdkd(['gc']);
    expect(gc.code, gc.stderr).toBe(0);
    expect(gc.stdout).toContain('deleted s3://');
    expect(await stored('stray-old.zip')).toBeUndefined();
    expect(await stored('stray-new.zip')).toBeDefined();
    expect(await stored(assetKey('gc-first'))).toBeDefined();
    expect(await stored(assetKey('gc-second'))).toBeDefined();
  });

  it('refuses while a stack holds a lock, deleting nothing', async () => {
    await strayObject('stray-locked.zip', 60);
    const stateBucket = await bucketNamed('cdkd-state-');
    const lock = 'cdkd/GcKeep/us-east-1/lock.json';
    const expiresAt = new Date(Date.now() + 1_800_000).toISOString();
    await s3().send(
      new PutObjectCommand({
        Bucket: stateBucket,
        Key: lock,
        Body: JSON.stringify({
          version: 1,
          owner: 'elsewhere:1',
          timestamp: new Date().toISOString(),
          expiresAt,
        }),
      }),
    );
    const refused = await cdkd(['gc']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('GC_RUN_IN_FLIGHT');
    expect(refused.stderr).toContain('GcKeep (us-east-1)');
    expect(await stored('stray-locked.zip')).toBeDefined();
    await s3().send(new DeleteObjectCommand({ Bucket: stateBucket, Key: lock }));
  });
});

describe('cdkd publish-assets', () => {
  it('publishes without deploying; the deploy after it publishes nothing new', async () => {
    const app = assembly('Published', 'published-asset');
    const published = await cdkd(['publish-assets', '-a', app]);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain('Published: assets published to s3://cdkd-assets-');
    const key = assetKey('published-asset');
    const bucket = await bucketNamed('cdkd-assets-');
    expect(await body(bucket, key)).toBe('published-asset');
    expect((await cdkd(['state', 'show', 'Published'])).code).not.toBe(0);

    // Marked after publishing: a deploy that uploaded the asset again would overwrite the mark.
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'mark' }));
    const deployed = await cdkd(['deploy', '-a', app]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await body(bucket, key)).toBe('mark');
  });
});

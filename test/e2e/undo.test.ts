import {
  DeleteObjectCommand,
  GetBucketLifecycleConfigurationCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { assetKey, fileAsset } from '../helpers/file-asset.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd undo on the sandbox: each successful deploy records a generation; undo plans a kept one
// as diff does and deploys it through the ordinary deploy (lock, journal, data-loss guard).
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const s3 = () => new S3Client({ region: 'us-east-1', forcePathStyle: true });

interface Version {
  /** A named parameter: renaming it replaces it (an SQS queue would wait out its name's cooldown). */
  named: string;
  /** The bucket's name, or absent: no bucket. */
  bucket?: string;
  /** The asset file's content; its hash names the object. */
  asset: string;
}

function assembly(stack: string, version: Version): string {
  const dir = tempDir();
  const asset = fileAsset(dir, version.asset);
  writeAssembly(dir, [
    {
      id: stack,
      template: {
        Resources: {
          Named: {
            Type: 'AWS::SSM::Parameter',
            Properties: { Name: version.named, Type: 'String', Value: 'named' },
          },
          ...(version.bucket && {
            Data: {
              Type: 'AWS::S3::Bucket',
              Properties: { BucketName: version.bucket },
              DeletionPolicy: 'Delete',
              UpdateReplacePolicy: 'Delete',
            },
          }),
          Pointer: asset.pointer,
        },
      },
      assets: asset.manifest,
    },
  ]);
  return dir;
}

const cdkd = (args: string[]) => runCli(args, { env: env() });

async function deploy(stack: string, version: Version, extra: string[] = []) {
  const result = await cdkd(['deploy', '-a', assembly(stack, version), ...extra]);
  expect(result.code, result.stderr).toBe(0);
}

async function resources(stack: string): Promise<Record<string, { physicalId: string }>> {
  const shown = await cdkd(['state', 'show', stack, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout).resources;
}

async function bucketExists(name: string): Promise<boolean> {
  return s3()
    .send(new HeadBucketCommand({ Bucket: name }))
    .then(
      () => true,
      () => false,
    );
}

async function assetBucket(): Promise<string> {
  const { Buckets } = await s3().send(new ListBucketsCommand({}));
  return Buckets!.map((bucket) => bucket.Name!).find((name) => name.startsWith('cdkd-assets-'))!;
}

beforeAll(async () => {
  const bootstrap = await cdkd(['bootstrap', '--state-history', '3']);
  expect(bootstrap.code, bootstrap.stderr).toBe(0);
});

describe('cdkd undo', () => {
  const v1: Version = { named: 'undo-one', bucket: 'undo-kept-data', asset: 'first' };
  const v2: Version = { named: 'undo-two', asset: 'second' };

  it('puts back a replaced resource and a deleted bucket; --list, --dry-run and --to', async () => {
    await deploy('Undo', v1);
    await deploy('Undo', v2);
    await expect(resources('Undo')).resolves.not.toHaveProperty('Data');
    expect(await bucketExists('undo-kept-data')).toBe(false);

    const list = await cdkd(['undo', 'Undo', '--list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/ 2 {4}\S+ {2}deploy: 1 updated, 1 replaced, 1 deleted {2}\(current\)/);
    expect(list.stdout).toMatch(/ 1 {4}\S+ {2}deploy: 3 created\n/);

    const dry = await cdkd(['undo', 'Undo', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('back to generation 1');
    expect(dry.stdout).toMatch(/-\/\+ Named \(AWS::SSM::Parameter\)/);
    expect(dry.stdout).toMatch(/\+ +Data \(AWS::S3::Bucket\): new in the template/);
    expect((await resources('Undo')).Named!.physicalId).toContain('undo-two');

    const undo = await cdkd(['undo', 'Undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain('is back at generation 1');
    const back = await resources('Undo');
    expect(back.Named!.physicalId).toContain('undo-one');
    expect(back.Data!.physicalId).toBe('undo-kept-data');
    expect(await bucketExists('undo-kept-data')).toBe(true);
    expect((await cdkd(['undo', 'Undo', '--list'])).stdout).toMatch(/ 3 {4}\S+ {2}undo to 1: .*\(current\)/);

    const redo = await cdkd(['undo', 'Undo', '--to', '2']);
    expect(redo.code, redo.stderr).toBe(0);
    expect((await resources('Undo')).Named!.physicalId).toContain('undo-two');
    expect(await bucketExists('undo-kept-data')).toBe(false);

    const everyStack = await cdkd(['undo', '--list']);
    expect(everyStack.code, everyStack.stderr).toBe(0);
    expect(everyStack.stdout).toContain('Undo: generations kept, newest first');
    const unnamed = await cdkd(['undo']);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain("missing argument 'stack'");

    const missing = await cdkd(['undo', 'Undo', '--to', '9']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('UNDO_GENERATION_NOT_FOUND');
  });

  it('refuses, as deploy does, to replace a bucket holding data back without --force-stateful-recreation, and asks with it', async () => {
    await deploy('UndoData', { named: 'undo-data-q', bucket: 'undo-data-a', asset: 'data' });
    await deploy('UndoData', { named: 'undo-data-q', bucket: 'undo-data-b', asset: 'data' }, [
      '--force-stateful-recreation',
      '--yes',
    ]);
    await s3().send(new PutObjectCommand({ Bucket: 'undo-data-b', Key: 'precious', Body: 'x' }));

    const blocked = await cdkd(['undo', 'UndoData']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('STATEFUL_REPLACE_BLOCKED');
    const asked = await cdkd(['undo', 'UndoData', '--force-stateful-recreation']);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('**DATA LOSS** Data (AWS::S3::Bucket)');
    expect(asked.stderr).toContain('No terminal to ask on.');
    expect((await resources('UndoData')).Data!.physicalId).toBe('undo-data-b');
  });

  it('refuses with the asset objects named when the generation returned to reads assets gone', async () => {
    await deploy('UndoGone', { named: 'undo-gone-q', asset: 'gone-first' });
    await deploy('UndoGone', { named: 'undo-gone-q', asset: 'gone-second' });
    const key = assetKey('gone-first');
    await s3().send(new DeleteObjectCommand({ Bucket: await assetBucket(), Key: key }));
    const refused = await cdkd(['undo', 'UndoGone']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('UNDO_ASSETS_GONE');
    expect(refused.stderr).toContain(key);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses while the stack has a rollback journal from a failed deploy', async () => {
    await deploy('UndoJournal', { named: 'undo-journal-one', asset: 'journal' });
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'ssm',
        operation: 'PutParameter',
        errorCode: 'ValidationException',
        httpStatus: 400,
        message: 'injected',
      }),
    });
    const failed = await cdkd([
      'deploy',
      '-a',
      assembly('UndoJournal', { named: 'undo-journal-two', asset: 'journal' }),
      '--no-rollback',
    ]);
    expect(failed.code).toBe(1);
    const refused = await cdkd(['undo', 'UndoJournal']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('UNDO_JOURNAL_PENDING');
    expect(refused.stderr).toContain('cdkd rollback UndoJournal');
  });

  it('bootstrap sets the state-history rule, converges on a new N, and the sandbox trims old generations', async () => {
    const bucket = 'cdkd-state-' + (await accountId());
    const rule = async () =>
      (await s3().send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }))).Rules!.filter(
        (r) => r.ID === 'cdkd-state-history',
      );
    expect((await rule())[0]!.NoncurrentVersionExpiration).toEqual({
      NoncurrentDays: 1,
      NewerNoncurrentVersions: 3,
    });
    expect((await cdkd(['bootstrap', '--state-history', '2'])).code).toBe(0);
    expect(await rule()).toHaveLength(1);
    expect((await rule())[0]!.NoncurrentVersionExpiration!.NewerNoncurrentVersions).toBe(2);
    const refused = await cdkd(['bootstrap', '--state-history', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('STATE_HISTORY_INVALID');

    // Undo's stack has four generations; two days on, the current one and the 2 newest noncurrent stay.
    const key = 'cdkd/Undo/us-east-1/generation.json';
    const versions = async () =>
      ((await s3().send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }))).Versions ?? [])
        .length;
    expect(await versions()).toBe(4);
    await fetch(`${sandbox.current.url}/_sandbox/clock`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 'P3D' }),
    });
    expect(await versions()).toBe(3);
    const list = await cdkd(['undo', 'Undo', '--list']);
    expect(list.stdout).toMatch(/ 4 .*\n.* 3 .*\n.* 2 /);
    expect(list.stdout).not.toMatch(/ 1 {4}/);
  });
});

async function accountId(): Promise<string> {
  const { Buckets } = await s3().send(new ListBucketsCommand({}));
  const state = Buckets!.map((bucket) => bucket.Name!).find((name) => name.startsWith('cdkd-state-'))!;
  return state.slice('cdkd-state-'.length);
}

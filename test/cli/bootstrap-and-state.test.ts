import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import {
  GetBucketEncryptionCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  ListBucketsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });

describe('cdkd bootstrap', () => {
  it('creates both buckets, twice gives the same result, then state list is empty', async () => {
    const first = await runCli(['bootstrap'], { env: env() });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('State bucket: cdkd-state-000000000000 (us-east-1) created');
    expect(first.stdout).toContain('Asset bucket: cdkd-assets-000000000000-us-east-1 (us-east-1) created');

    const bucketsAfterFirst = (await s3().send(new ListBucketsCommand({}))).Buckets?.map(
      (b) => b.Name,
    ).sort();
    const second = await runCli(['bootstrap'], { env: env() });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('cdkd-state-000000000000 (us-east-1) already present');
    expect((await s3().send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name).sort()).toEqual(
      bucketsAfterFirst,
    );

    const bucket = 'cdkd-state-000000000000';
    expect((await s3().send(new GetBucketVersioningCommand({ Bucket: bucket }))).Status).toBe('Enabled');
    const encryption = await s3().send(new GetBucketEncryptionCommand({ Bucket: bucket }));
    expect(
      encryption.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault
        ?.SSEAlgorithm,
    ).toBe('AES256');
    const block = await s3().send(new GetPublicAccessBlockCommand({ Bucket: bucket }));
    expect(block.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });

    const list = await runCli(['state', 'list'], { env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('No stacks recorded in s3://cdkd-state-000000000000.');
  });

  it('honours --state-bucket and CDKD_STATE_BUCKET', async () => {
    expect(
      (await runCli(['bootstrap', '--state-bucket', 'my-flag-bucket'], { env: env() })).stdout,
    ).toContain('State bucket: my-flag-bucket');
    expect(
      (await runCli(['bootstrap'], { env: { ...env(), CDKD_STATE_BUCKET: 'my-env-bucket' } })).stdout,
    ).toContain('State bucket: my-env-bucket');
  });

  it('refuses a bucket name another account owns', async () => {
    const result = await runCli(['bootstrap', '--state-bucket', 'foreign-owned-bucket'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [BUCKET_NAME_TAKEN]: The bucket "foreign-owned-bucket" exists');
    expect(result.stderr).toContain('--state-bucket');
  });

  it('refuses an invalid bucket name with a clear message and exit 1', async () => {
    const result = await runCli(['bootstrap', '--state-bucket', 'Bad_Name'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"Bad_Name" is not a valid S3 bucket name');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('cdkd state', () => {
  it('state list and show report a recorded stack; show --json prints the document', async () => {
    await runCli(['bootstrap'], { env: env() });
    const doc = emptyStateDocument('Shown', 'us-east-1');
    doc.resources.Queue = {
      type: 'AWS::SQS::Queue',
      physicalId: 'https://sqs/queue',
      properties: {},
      attributes: {},
      provisionedBy: 'sdk',
      dependencies: [],
    };
    await s3().send(
      new PutObjectCommand({
        Bucket: 'cdkd-state-000000000000',
        Key: 'cdkd/Shown/us-east-1/state.json',
        Body: JSON.stringify(doc),
      }),
    );
    const list = await runCli(['state', 'list'], { env: env() });
    expect(list.stdout).toMatch(/^Shown\tus-east-1\t1 resources/m);
    const show = await runCli(['state', 'show', 'Shown'], { env: env() });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Queue\tAWS::SQS::Queue\thttps://sqs/queue\t(sdk)');
    const json = await runCli(['state', 'show', 'Shown', '--json'], { env: env() });
    expect(JSON.parse(json.stdout).resources.Queue.physicalId).toBe('https://sqs/queue');
  });

  it('state show of an unknown stack is a clear error', async () => {
    const result = await runCli(['state', 'show', 'Nope'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [STACK_NOT_IN_STATE]: No state for stack Nope in us-east-1');
    expect(result.stderr).toContain('cdkd state list');
  });

  it('state list without a state bucket says to run cdkd bootstrap', async () => {
    const result = await runCli(['state', 'list', '--state-bucket', 'never-made'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The state bucket "never-made" does not exist.');
    expect(result.stderr).toContain('Run cdkd bootstrap');
  });
});

describe('a state bucket in another region', () => {
  it('is found through GetBucketLocation, not surfaced as a bare 301', async () => {
    const bucket = 'state-in-frankfurt';
    const made = await runCli(['bootstrap', '--region', 'eu-central-1', '--state-bucket', bucket], {
      env: env(),
    });
    expect(made.stdout).toContain(`State bucket: ${bucket} (eu-central-1) created`);
    const list = await runCli(['state', 'list', '--region', 'us-east-1', '--state-bucket', bucket], {
      env: env(),
    });
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain(`No stacks recorded in s3://${bucket}.`);
  });
});

describe('cdkd force-unlock', () => {
  it('refuses without --yes when there is no terminal, then deletes the lock with --yes', async () => {
    await runCli(['bootstrap'], { env: env() });
    const lock = {
      version: 1,
      owner: 'ghost@gone:1',
      timestamp: '2026-01-01T00:00:00Z',
      expiresAt: '2999-01-01T00:00:00Z',
      operation: 'deploy',
    };
    await s3().send(
      new PutObjectCommand({
        Bucket: 'cdkd-state-000000000000',
        Key: 'cdkd/Stuck/us-east-1/lock.json',
        Body: JSON.stringify(lock),
      }),
    );
    const refused = await runCli(['force-unlock', 'Stuck'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--yes');
    const done = await runCli(['force-unlock', 'Stuck', '--yes'], { env: env() });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(
      'Deleted the lock on stack Stuck (us-east-1) held by ghost@gone:1 for deploy.',
    );
    const again = await runCli(['force-unlock', 'Stuck', '-y'], { env: env() });
    expect(again.stdout).toContain('was not locked');
  });

  it('shows the holder, and refuses one still running on this host unless --force', async () => {
    await runCli(['bootstrap'], { env: env() });
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const now = Date.now();
      const lock = {
        version: 1,
        owner: `me@${hostname()}:${holder.pid}`,
        timestamp: new Date(now - 3 * 60_000).toISOString(),
        expiresAt: new Date(now + 27 * 60_000).toISOString(),
        operation: 'destroy',
      };
      await s3().send(
        new PutObjectCommand({
          Bucket: 'cdkd-state-000000000000',
          Key: 'cdkd/Busy/us-east-1/lock.json',
          Body: JSON.stringify(lock),
        }),
      );
      const refused = await runCli(['force-unlock', 'Busy', '--yes'], { env: env() });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Error [LOCK_HOLDER_RUNNING]');
      expect(refused.stderr).toContain(`pid ${holder.pid}`);
      expect(refused.stderr).toContain('--force');
      const asked = await runCli(['force-unlock', 'Busy', '--force'], { env: env() });
      expect(asked.code).toBe(1);
      expect(asked.stdout).toMatch(
        new RegExp(
          `Stack Busy \\(us-east-1\\) is locked: owner me@.*:${holder.pid}, operation destroy, taken or last renewed 3 minutes ago, expires in 27 minutes`,
        ),
      );
      expect(asked.stderr).toContain('CONFIRMATION_REQUIRED');
      const forced = await runCli(['force-unlock', 'Busy', '--force', '--yes'], { env: env() });
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain('Deleted the lock on stack Busy (us-east-1)');
    } finally {
      holder.kill();
    }
  });
});

import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Spec 003, "Signals", before the first stack starts: whatever phase a SIGINT/SIGTERM lands
// in (credentials, synthesis, the wait for a held lock), the run exits 1 and says it was
// interrupted; it never reports "Done" with exit 0.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let counter = 0;

function assemblyFor(stackName: string) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: { Queue: { Type: 'AWS::SQS::Queue' } } } }]);
  return dir;
}

/** Starts the built CLI; `done` resolves with its exit code and output. */
function start(args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env(), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

async function until(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function stateBucket(s3: S3Client) {
  const buckets = (await s3.send(new ListBucketsCommand({}))).Buckets ?? [];
  return buckets.find((bucket) => bucket.Name!.startsWith('cdkd-state-'))!.Name!;
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('a signal before the first stack starts', () => {
  it('SIGINT during the credential lookup exits 1 and says so', async () => {
    const dir = tempDir();
    const marker = join(dir, 'credentials-asked');
    const config = join(dir, 'config');
    // A credential_process that is slow to answer, as an SSO or MFA helper can be.
    const answer = JSON.stringify({ Version: 1, AccessKeyId: 'AKIDSLOW', SecretAccessKey: 'slow' });
    const script = join(dir, 'slow-credentials.sh');
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nsleep 2\necho '${answer}'\n`, { mode: 0o755 });
    writeFileSync(config, `[default]\ncredential_process = ${script}\nregion = us-east-1\n`);
    const run = start(['deploy', '-a', assemblyFor(`EarlyCreds${++counter}`)], {
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_CONFIG_FILE: config,
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
    });
    await until(() => existsSync(marker));
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error [INTERRUPTED]: Interrupted by SIGINT while looking up credentials',
    );
    expect(result.stderr).not.toContain('Done:');
  });

  it('SIGTERM during synthesis exits 1 and says so', async () => {
    const dir = tempDir();
    const marker = join(dir, 'app-started');
    const run = start(['deploy', '-a', `sh -c "touch '${marker}'; sleep 2"`]);
    await until(() => existsSync(marker));
    run.child.kill('SIGTERM');
    const result = await run.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Interrupted by SIGTERM during synthesis');
    expect(result.stderr).not.toContain('Done:');
  });

  it('SIGINT while assets are published: the upload finishes, the stack is not deployed, exit 1', async () => {
    const stackName = `EarlyAssets${++counter}`;
    const dir = tempDir();
    const hash = 'a'.repeat(64);
    writeFileSync(join(dir, `asset.${hash}.txt`), 'payload\n');
    writeAssembly(dir, [
      {
        id: stackName,
        template: { Resources: { Queue: { Type: 'AWS::SQS::Queue' } } },
        assets: {
          version: '36.0.0',
          files: {
            [hash]: {
              source: { path: `asset.${hash}.txt`, packaging: 'file' },
              destinations: {
                'current_account-current_region': {
                  bucketName: 'cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}',
                  objectKey: `${hash}.txt`,
                },
              },
            },
          },
          dockerImages: {},
        },
      },
    ]);
    await fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 's3', operation: 'PutObject', latencyMs: 1000, every: true }),
    });
    try {
      const run = start(['deploy', '-a', dir]);
      await until(async () => {
        const { calls } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
          calls: Record<string, { count: number }>;
        };
        return (calls['s3:PutObject']?.count ?? 0) >= 1;
      });
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `Interrupted by SIGINT after publishing the assets of ${stackName}; it was not deployed`,
      );
      expect(result.stderr).not.toContain('create started');
    } finally {
      await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    const state = await runCli(['state', 'show', stackName], { env: env() });
    expect(state.code).not.toBe(0);
  });

  it('SIGINT while waiting for a held lock exits 1, says so, and leaves the holder its lock', async () => {
    const stackName = `EarlyLock${++counter}`;
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    const bucket = await stateBucket(s3);
    const key = `cdkd/${stackName}/us-east-1/lock.json`;
    const now = new Date();
    const foreign = {
      version: 1,
      owner: 'someone@elsewhere:1',
      timestamp: now.toISOString(),
      expiresAt: new Date(now.getTime() + 30 * 60_000).toISOString(),
      operation: 'deploy',
    };
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(foreign) }));
    await fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });
    const run = start(['deploy', '-a', assemblyFor(stackName)]);
    // The lock's create was refused and the holder read: the deploy is now waiting to retry.
    await until(async () => {
      const { calls } = (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
        calls: Record<string, { count: number }>;
      };
      return (calls['s3:PutObject']?.count ?? 0) >= 1 && (calls['s3:GetObject']?.count ?? 0) >= 1;
    });
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Interrupted by SIGINT while waiting for the lock of stack ${stackName}`);
    expect(result.stderr).not.toContain('Done:');
    const lock = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(JSON.parse(await lock.Body!.transformToString()).owner).toBe('someone@elsewhere:1');
  });
});

describe('an output whose reader went away (EPIPE)', () => {
  async function lockOf(stackName: string) {
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    const bucket = await stateBucket(s3);
    return s3
      .send(new GetObjectCommand({ Bucket: bucket, Key: `cdkd/${stackName}/us-east-1/lock.json` }))
      .then(
        () => 'held',
        (error: { name?: string }) => (error.name === 'NoSuchKey' ? 'absent' : `unreadable: ${error.name}`),
      );
  }

  const queues = (n: number) => ({
    Resources: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }]),
    ),
  });

  it.each([
    ['the reader exits early', false],
    ['a parent times out: SIGTERM and the pipes dropped', true],
  ])('%s: the run stops as on SIGTERM, the lock is released, the next deploy finishes', async (_, term) => {
    const stackName = `ClosedPipe${++counter}`;
    const dir = tempDir();
    writeAssembly(dir, [{ id: stackName, template: queues(10) }]);
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'sqs', operation: 'CreateQueue', latencyMs: 300, every: true }),
    });
    const run = start(['deploy', '-a', dir, '--concurrency', '2']);
    let seen = '';
    await new Promise<void>((resolve) =>
      run.child.stderr.on('data', (chunk) => {
        seen += chunk;
        if (seen.includes('create started')) resolve();
      }),
    );
    // Like `head`: stop reading and close both pipes.
    run.child.stdout.destroy();
    run.child.stderr.destroy();
    if (term) run.child.kill('SIGTERM');
    const result = await run.done;
    await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(result.code).toBe(1);
    // A crash would have left the lock for 30 minutes.
    expect(await lockOf(stackName)).toBe('absent');

    const again = await runCli(['deploy', '-a', dir], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('LOCK_HELD');
    const state = await runCli(['state', 'show', stackName, '--json'], { env: env() });
    expect(Object.keys((JSON.parse(state.stdout) as { resources: object }).resources)).toHaveLength(10);
    expect((await runCli(['destroy', '-a', dir, '--yes'], { env: env() })).code).toBe(0);
  });
});

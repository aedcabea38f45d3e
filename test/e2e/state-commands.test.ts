import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { isSameResource, liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd state refresh-observed and cdkd state destroy on the built CLI: state alone, no app.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const sqs = () => new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function recorded(stack: string) {
  const shown = await cli(['state', 'show', stack, '--json']);
  return shown.code === 0 ? JSON.parse(shown.stdout).resources : undefined;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd state refresh-observed', () => {
  it('stores what AWS holds as observed properties, changing neither AWS nor the applied properties', async () => {
    const deployed = await cli([
      'deploy',
      '-a',
      app('Observed', {
        Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } },
        Gone: { Type: 'AWS::SQS::Queue' },
      }),
    ]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const before = await recorded('Observed');
    await sqs().send(
      new SetQueueAttributesCommand({
        QueueUrl: before.Q.physicalId,
        Attributes: { VisibilityTimeout: '90' },
      }),
    );
    await sqs().send(new DeleteQueueCommand({ QueueUrl: before.Gone.physicalId }));

    const refreshed = await cli(['state', 'refresh-observed', 'Observed']);
    expect(refreshed.code, refreshed.stderr).toBe(2);
    expect(refreshed.stderr).toContain('Gone no longer exists in AWS');
    const after = await recorded('Observed');
    expect(Number(after.Q.observedProperties.VisibilityTimeout)).toBe(90);
    expect(after.Q.properties.VisibilityTimeout).toBe(30);
    expect(after.Gone).toEqual(before.Gone);
    const live = await sqs().send(
      new GetQueueAttributesCommand({ QueueUrl: before.Q.physicalId, AttributeNames: ['VisibilityTimeout'] }),
    );
    expect(live.Attributes?.VisibilityTimeout).toBe('90');

    const unknown = await cli(['state', 'refresh-observed', 'NoSuchStack']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No state for stack NoSuchStack');
  });
});

describe('cdkd state destroy', () => {
  it('deletes a stack whose app is gone from its state, keeping what DeletionPolicy Retain keeps', async () => {
    const deployed = await cli([
      'deploy',
      '-a',
      app('Orphaned', {
        Kept: {
          Type: 'AWS::S3::Bucket',
          DeletionPolicy: 'Retain',
          Properties: { BucketName: 'state-destroy-kept' },
        },
        Q: { Type: 'AWS::SQS::Queue' },
        Reader: {
          Type: 'AWS::SNS::Topic',
          Properties: { DisplayName: { 'Fn::GetAtt': ['Q', 'QueueName'] } },
        },
      }),
    ]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const state = await recorded('Orphaned');

    const unattended = await cli(['state', 'destroy', 'Orphaned']);
    expect(unattended.code).toBe(1);
    expect(unattended.stderr).toContain('--yes');
    expect(await recorded('Orphaned')).toEqual(state);

    const destroyed = await cli(['state', 'destroy', 'Orphaned', '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toContain('Orphaned: destroyed (2 resources deleted)');
    expect(destroyed.stdout).toContain('Kept kept in AWS by its DeletionPolicy');
    expect(await recorded('Orphaned')).toBeUndefined();
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(new HeadBucketCommand({ Bucket: 'state-destroy-kept' }));
    const live = await liveResources(sandbox.current.url);
    const held = (record: { type: string; physicalId: string }) =>
      live.some((l) => isSameResource(record, l));
    expect(held(state.Kept)).toBe(true);
    expect(held(state.Q)).toBe(false);
    expect(held(state.Reader)).toBe(false);

    const again = await cli(['state', 'destroy', 'Orphaned', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('nothing recorded');
  });
});

describe('cdkd state destroy and signals', () => {
  it("a second SIGINT quits with 130 and still releases the lock, as destroy's does", async () => {
    const resources = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`Q${i}`, { Type: 'AWS::SQS::Queue' }]),
    );
    expect((await cli(['deploy', '-a', app('Interrupted', resources)])).code).toBe(0);
    const fault = { service: 'sqs', operation: 'DeleteQueue', latencyMs: 2000, every: true };
    const admin = (init: RequestInit) =>
      fetch(`${sandbox.current.url}/_sandbox/faults`, {
        ...init,
        headers: { 'content-type': 'application/json' },
      });
    await admin({ method: 'POST', body: JSON.stringify(fault) });
    const cliPath = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
    const child = spawn(
      process.execPath,
      [cliPath, 'state', 'destroy', 'Interrupted', '--yes', '--concurrency', '2'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('delete started')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    await admin({ method: 'DELETE' });
    // state destroy fails fast on a held lock: this succeeds only because the lock was released.
    const again = await cli(['state', 'destroy', 'Interrupted', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(await recorded('Interrupted')).toBeUndefined();
  });
});

import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { killedQueueDeploy } from '../helpers/killed-deploy.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd scrub on the built CLI, after a deploy killed with SIGKILL.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd scrub', () => {
  it('after a SIGKILL: names the live lock, then clears it once stale and settles the journal', async () => {
    expect((await cli(['scrub'])).stdout).toContain('Nothing left behind');
    await killedQueueDeploy(sandbox.current.url, 'Crashed', { queues: 6, killAfter: 3 });

    const early = await cli(['scrub', '--yes']);
    expect(early.code, early.stderr).toBe(2);
    expect(early.stdout).toContain('Crashed (us-east-1): a lock held by');
    expect(early.stdout).toContain('cdkd force-unlock Crashed');
    // Killed before or after its first state save: the journal's stack has no state yet, or has it.
    expect(early.stdout).toMatch(/a rollback journal of (a run that never finished|a stack with no state)/);
    expect(early.stdout).toContain('cdkd rollback Crashed');
    expect(await liveResources(sandbox.current.url)).not.toEqual([]);

    // Time passes: the lock's expiresAt is behind us, as a crashed run's lock ends up.
    const { bucket } = JSON.parse((await cli(['state', 'list', '--json'])).stdout);
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    const key = 'cdkd/Crashed/us-east-1/lock.json';
    const lock = JSON.parse(
      await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToString(),
    );
    lock.expiresAt = new Date(Date.parse(lock.timestamp) - 60_000).toISOString();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(lock) }));

    const scrubbed = await cli(['scrub', '--yes']);
    expect([0, 2], scrubbed.stdout + scrubbed.stderr).toContain(scrubbed.code);
    expect(scrubbed.stdout).toContain('a lock past its expiry');
    expect(scrubbed.stdout).toContain('Rollback plan:');
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    const after = await cli(['scrub']);
    expect(after.stdout, after.stderr).toContain('Nothing left behind');
  });
});

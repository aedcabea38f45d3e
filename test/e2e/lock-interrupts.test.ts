import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli, startCli } from '../helpers/cli.js';
import { killedQueueDeploy } from '../helpers/killed-deploy.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25, item 14: every command that takes a stack's lock meets SIGINT on one path. The first
// signal, landing while the command holds the lock (a sandbox latency fault holds a call it
// makes), ends it with exit 130 and the lock released; a second one quits at once, releasing it.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
const sqs = () => new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
const BUCKET = 'cdkd-state-000000000000';

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

const queue = (name: string) => ({ Type: 'AWS::SQS::Queue', Properties: { QueueName: name } });

async function faults(init: { method: string; body?: unknown }) {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: init.method,
    headers: { 'content-type': 'application/json' },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
}

/** Every call of `service`'s `operation` held `latencyMs` by the sandbox. */
const slow = (service: string, operation: string, latencyMs = 1500) =>
  faults({ method: 'POST', body: { service, operation, latencyMs, every: true } });

async function lockHeld(stackName: string): Promise<boolean> {
  const listed = await s3().send(
    new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `cdkd/${stackName}/us-east-1/lock.json` }),
  );
  return (listed.KeyCount ?? 0) > 0;
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function callsOf(key: string): Promise<number> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/calls`);
  const { calls } = (await response.json()) as { calls: Record<string, { count: number }> };
  return calls[key]?.count ?? 0;
}

/**
 * Runs the built CLI and sends SIGINT (`signals` times, 300 ms apart) once it holds the lock
 * of `stackName` and, when named, has made the held call (one the command makes only under
 * the lock). Returns how it ended; the faults are cleared first.
 */
async function interrupt(
  args: string[],
  stackName: string,
  options: { held?: string; signals?: number } = {},
) {
  await fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });
  // No marker: the test signals on the lock and the calls, not on output.
  const run = startCli(args, '\u0000', { env: env() });
  await until(
    async () => (await lockHeld(stackName)) && (!options.held || (await callsOf(options.held)) > 0),
    `${args[0]} to take the lock of ${stackName}${options.held ? ` and call ${options.held}` : ''}`,
  );
  for (let sent = 0; sent < (options.signals ?? 1); sent += 1) {
    if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 300));
    run.child.kill('SIGINT');
  }
  const code = await run.done;
  await faults({ method: 'DELETE' });
  return { code, stderr: run.stderr(), lockHeld: await lockHeld(stackName) };
}

async function deployed(stackName: string, resources: Record<string, unknown>): Promise<string> {
  const dir = app(stackName, resources);
  const result = await cli(['deploy', '-a', dir]);
  expect(result.code, result.stderr).toBe(0);
  return dir;
}

async function recorded(stackName: string): Promise<string[] | undefined> {
  const shown = await cli(['state', 'show', stackName, '--json']);
  return shown.code === 0 ? Object.keys(JSON.parse(shown.stdout).resources).sort() : undefined;
}

async function queueUrl(name: string): Promise<string> {
  return (await sqs().send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe(
  'the first SIGINT while a command holds the lock: exit 130, lock released',
  { timeout: 180_000 },
  () => {
    it('cdkd orphan: nothing is orphaned', async () => {
      const dir = await deployed('SigOrphan', { A: queue('sig-orphan-a'), B: queue('sig-orphan-b') });
      await slow('s3', 'GetObject');
      const result = await interrupt(['orphan', 'SigOrphan', 'B', '-a', dir], 'SigOrphan');
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('SIGINT received: stopping once the call in flight returns');
      expect(result.stderr).toContain('Error [INTERRUPTED]: Interrupted by SIGINT');
      expect(result.lockHeld).toBe(false);
      expect(await recorded('SigOrphan')).toEqual(['A', 'B']);
    });

    it('cdkd state orphan: nothing is orphaned', async () => {
      await deployed('SigStateOrphan', { A: queue('sig-state-orphan-a') });
      await slow('s3', 'GetObject');
      const result = await interrupt(['state', 'orphan', 'SigStateOrphan', 'A'], 'SigStateOrphan');
      expect(result.code, result.stderr).toBe(130);
      expect(result.lockHeld).toBe(false);
      expect(await recorded('SigStateOrphan')).toEqual(['A']);
    });

    it('cdkd import: nothing is recorded', async () => {
      await sqs().send(new CreateQueueCommand({ QueueName: 'sig-import-q' }));
      const url = await queueUrl('sig-import-q');
      const dir = app('SigImport', { Q: queue('sig-import-q') });
      await slow('sqs', '*');
      const result = await interrupt(
        ['import', 'SigImport', '--resource', `Q=${url}`, '-a', dir],
        'SigImport',
        {
          held: 'sqs:GetQueueAttributes',
        },
      );
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('nothing was recorded');
      expect(result.lockHeld).toBe(false);
      expect(await recorded('SigImport')).toBeUndefined();
      await sqs().send(new DeleteQueueCommand({ QueueUrl: url }));
    });

    it('cdkd drift --accept: nothing is accepted', async () => {
      await deployed('SigAccept', { A: queue('sig-accept-a') });
      await sqs().send(
        new SetQueueAttributesCommand({
          QueueUrl: await queueUrl('sig-accept-a'),
          Attributes: { VisibilityTimeout: '77' },
        }),
      );
      await slow('sqs', 'GetQueueAttributes');
      const result = await interrupt(['drift', 'SigAccept', '--accept'], 'SigAccept', {
        held: 'sqs:GetQueueAttributes',
      });
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('nothing was accepted');
      expect(result.lockHeld).toBe(false);
      const drift = await cli(['drift', 'SigAccept']);
      expect(drift.stdout).toContain('VisibilityTimeout: applied 30, AWS holds 77');
    });

    it('cdkd drift --revert: the revert in flight finishes and is saved', async () => {
      await deployed('SigRevert', { A: queue('sig-revert-a') });
      const url = await queueUrl('sig-revert-a');
      await sqs().send(
        new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: '77' } }),
      );
      await slow('sqs', 'GetQueueAttributes');
      const result = await interrupt(['drift', 'SigRevert', '--revert'], 'SigRevert', {
        held: 'sqs:GetQueueAttributes',
      });
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('finishing the operations in flight');
      expect(result.lockHeld).toBe(false);
      const live = await sqs().send(
        new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['VisibilityTimeout'] }),
      );
      expect(live.Attributes?.VisibilityTimeout).toBe('30');
    });

    it('cdkd state refresh-observed: nothing is saved', async () => {
      await deployed('SigRefresh', { A: queue('sig-refresh-a') });
      await slow('sqs', 'GetQueueAttributes');
      const result = await interrupt(['state', 'refresh-observed', 'SigRefresh'], 'SigRefresh', {
        held: 'sqs:GetQueueAttributes',
      });
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('nothing was saved');
      expect(result.lockHeld).toBe(false);
    });

    it('cdkd rollback --drop-failed: the journal is kept', async () => {
      await deployed('SigDrop', { A: queue('sig-drop-a') });
      await faults({
        method: 'POST',
        body: {
          service: 'sqs',
          operation: 'CreateQueue',
          errorCode: 'InvalidAttributeValue',
          httpStatus: 400,
        },
      });
      const failed = await cli([
        'deploy',
        '-a',
        app('SigDrop', { A: queue('sig-drop-a'), B: queue('sig-drop-b') }),
      ]);
      expect(failed.code, failed.stderr).toBe(1);
      await slow('s3', 'GetObject');
      const result = await interrupt(['rollback', 'SigDrop', '--drop-failed', '--yes'], 'SigDrop');
      expect(result.code, result.stderr).toBe(130);
      expect(result.lockHeld).toBe(false);
      const dropped = await cli(['rollback', 'SigDrop', '--drop-failed', '--yes']);
      expect(dropped.stdout, dropped.stderr).toContain('failed operations dropped');
    });

    it('cdkd scrub: the rollback it runs finishes its steps in flight; the journal names the rest', async () => {
      await killedQueueDeploy(sandbox.current.url, 'SigScrub', { queues: 6, killAfter: 3 });
      const unlocked = await cli(['force-unlock', 'SigScrub', '--yes']);
      expect(unlocked.code, unlocked.stderr).toBe(0);
      await slow('sqs', 'DeleteQueue');
      const result = await interrupt(['scrub', '--yes'], 'SigScrub', { held: 'sqs:DeleteQueue' });
      expect(result.code, result.stderr).toBe(130);
      expect(result.lockHeld).toBe(false);
      expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });
    });
  },
);

describe('a second SIGINT', { timeout: 180_000 }, () => {
  it('quits at once with exit 130 and releases the lock', async () => {
    await sqs().send(new CreateQueueCommand({ QueueName: 'sig-twice-q' }));
    const url = await queueUrl('sig-twice-q');
    const dir = app('SigTwice', { Q: queue('sig-twice-q') });
    await slow('sqs', '*', 20_000);
    const result = await interrupt(['import', 'SigTwice', '--resource', `Q=${url}`, '-a', dir], 'SigTwice', {
      held: 'sqs:GetQueueAttributes',
      signals: 2,
    });
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain('SIGINT received again: quitting now (exit 130).');
    // It did not wait for the held call to end the run as the first signal would.
    expect(result.stderr).not.toContain('Error [INTERRUPTED]');
    expect(result.lockHeld).toBe(false);
    expect(await recorded('SigTwice')).toBeUndefined();
    await sqs().send(new DeleteQueueCommand({ QueueUrl: url }));
  });
});

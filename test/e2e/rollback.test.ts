import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SQSClient,
  type QueueAttributeName,
} from '@aws-sdk/client-sqs';
import { ListBucketsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli, startCli } from '../helpers/cli.js';
import { liveResources, unmatched } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { untilQuiet } from '../helpers/sandbox-quiet.js';

// The built CLI against the sandbox: failed deploys rolled back automatically,
// by `cdkd rollback` after --no-rollback, after SIGINT, and after SIGKILL.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
let counter = 0;

async function admin(path: string, init: RequestInit = {}) {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  return response.json();
}
const addFault = (fault: Record<string, unknown>) =>
  admin('faults', { method: 'POST', body: JSON.stringify(fault) });

function assemblyFor(stackName: string, template: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

const deploy = (stackName: string, template: Record<string, unknown>, extra: string[] = []) =>
  runCli(['deploy', '-a', assemblyFor(stackName, template), ...extra], { env: env() });

async function stateOf(stack: string) {
  const result = await runCli(['state', 'show', stack, '--json'], { env: env() });
  return result.code === 0
    ? (JSON.parse(result.stdout) as {
        resources: Record<string, { type: string; physicalId: string }>;
        template?: unknown;
      })
    : undefined;
}

async function queueAttribute(url: string, name: QueueAttributeName) {
  const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
  return (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: [name] })))
    .Attributes?.[name];
}

/** A SNS topic whose CreateTopic the test makes fail. */
const doomedTopic = { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'doomed' } };
const failTopicCreate = () =>
  addFault({
    service: 'sns',
    operation: 'CreateTopic',
    errorCode: 'InvalidParameter',
    httpStatus: 400,
    message: 'injected by the test',
  });

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

afterEach(async () => {
  await admin('faults', { method: 'DELETE' });
  await admin('latency', { method: 'DELETE' }).catch(() => undefined);
});

describe('an update that fails is rolled back', () => {
  it('puts updated resources back to their before-properties and the stack record to the previous template', async () => {
    const stackName = `RollUpdate${++counter}`;
    const first = {
      Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } },
    };
    expect((await deploy(stackName, first)).code).toBe(0);
    const before = (await stateOf(stackName))!;
    const queueUrl = before.resources.Queue!.physicalId;

    await failTopicCreate();
    const second = {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 60 } },
        Topic: { ...doomedTopic, DependsOn: 'Queue' },
      },
    };
    const failed = await deploy(stackName, second);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Rolled back');
    expect(await queueAttribute(queueUrl, 'VisibilityTimeout')).toBe('30');
    const after = (await stateOf(stackName))!;
    expect(after.resources).toEqual(before.resources);
    expect(after.template).toEqual(before.template);
    await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
  });

  it('reverses a replacement of a named queue: the new copy deleted, the old one re-adopted', async () => {
    const stackName = `RollReplace${++counter}`;
    const named = (name: string) => ({ Type: 'AWS::SQS::Queue', Properties: { QueueName: name } });
    expect((await deploy(stackName, { Resources: { Queue: named(`${stackName}-old`) } })).code).toBe(0);
    const before = (await stateOf(stackName))!;

    await failTopicCreate();
    const failed = await deploy(stackName, {
      Resources: { Queue: named(`${stackName}-new`), Topic: { ...doomedTopic, DependsOn: 'Queue' } },
    });
    expect(failed.code).toBe(1);
    expect((await stateOf(stackName))!.resources).toEqual(before.resources);
    const queues = (await liveResources(sandbox.current.url)).map((live) => live.id);
    expect(queues).toEqual([`${stackName}-old`]);
    await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
  });

  it('keeps a new copy declaring UpdateReplacePolicy: Retain, and records its id in cdkd events', async () => {
    const stackName = `RollRetain${++counter}`;
    const named = (name: string) => ({
      Type: 'AWS::SQS::Queue',
      UpdateReplacePolicy: 'Retain',
      Properties: { QueueName: name },
    });
    expect((await deploy(stackName, { Resources: { Queue: named(`${stackName}-old`) } })).code).toBe(0);
    await failTopicCreate();
    const failed = await deploy(stackName, {
      Resources: { Queue: named(`${stackName}-new`), Topic: { ...doomedTopic, DependsOn: 'Queue' } },
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('need attention');
    const state = (await stateOf(stackName))!;
    expect(state.resources.Queue!.physicalId).toMatch(new RegExp(`/${stackName}-old$`));
    const live = (await liveResources(sandbox.current.url)).map((resource) => resource.id).sort();
    expect(live).toEqual([`${stackName}-new`, `${stackName}-old`]);
    const events = await runCli(['events', stackName, '--json'], { env: env() });
    const skipped = (JSON.parse(events.stdout) as Array<{ status: string; survivorId?: string }>).find(
      (event) => event.status === 'DELETE_SKIPPED',
    );
    expect(skipped?.survivorId).toMatch(new RegExp(`/${stackName}-new$`));
    await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    await sqs.send(new DeleteQueueCommand({ QueueUrl: skipped!.survivorId! }));
  });
});

const startDeploy = (stackName: string, template: Record<string, unknown>) =>
  startCli(['deploy', '-a', assemblyFor(stackName, template), '--concurrency', '3'], 'create started', {
    env: env(),
  });

const manyQueues = (n: number) => ({
  Resources: Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }]),
  ),
});

/** Writes a hand-made rollback journal of one segment holding `operations` for `stack`. */
async function putJournal(stack: string, operations: Array<Record<string, unknown>>) {
  const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
  const bucket = (await s3.send(new ListBucketsCommand({}))).Buckets!.find((entry) =>
    entry.Name!.startsWith('cdkd-state-'),
  )!.Name!;
  const journal = {
    version: 1,
    stackName: stack,
    region: 'us-east-1',
    segments: [
      {
        runId: 'hand-written',
        startedAt: new Date().toISOString(),
        cdkdVersion: 'test',
        flags: { prefixUserSuppliedNames: false },
        previous: { parameters: {}, tags: {}, outputs: {}, imports: [] },
        status: 'failed',
        operations,
        importMarks: [],
      },
    ],
  };
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `cdkd/${stack}/us-east-1/rollback-journal.json`,
      Body: JSON.stringify(journal),
    }),
  );
}

describe('a made resource a successful deploy cannot act on', () => {
  /** A journal entry for a queue a failed create made, with no identity to prove it by. */
  const journalWithUnprovableEntry = (stack: string) =>
    putJournal(stack, [
      {
        seq: 0,
        logicalId: 'Ghost',
        action: 'create',
        type: 'AWS::SQS::Queue',
        status: 'failed',
        made: { physicalId: `${sandbox.current.url}/000000000000/ghost`, provisionedBy: 'sdk' },
      },
    ]);

  it('is named in a warning and exits 2; --allow-unaddressed exits 0', async () => {
    const template = { Resources: { Queue: { Type: 'AWS::SQS::Queue' } } };
    for (const [extra, code] of [
      [[], 2],
      [['--allow-unaddressed'], 0],
    ] as const) {
      const stack = `Unaddressed${++counter}`;
      await journalWithUnprovableEntry(stack);
      const result = await deploy(stack, template, [...extra]);
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(/warning: .*ghost/);
      await runCli(['destroy', '-a', assemblyFor(stack, {}), '--yes'], { env: env() });
    }
  });
});

describe('interrupted deploys', () => {
  it('SIGINT: in-flight work finishes, state and journal are saved, the lock is released', async () => {
    const stackName = `Interrupted${++counter}`;
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    await addFault({ service: 'sqs', operation: 'CreateQueue', latencyMs: 300, every: true });
    const run = startDeploy(stackName, manyQueues(12));
    await run.creating;
    run.child.kill('SIGINT');
    expect(await run.done).toBe(1);
    expect(run.stderr()).toContain('SIGINT received');
    await admin('faults', { method: 'DELETE' });
    const state = await stateOf(stackName);
    expect(
      unmatched(Object.values(state?.resources ?? {}), await liveResources(sandbox.current.url)),
    ).toEqual({
      missing: [],
      extra: [],
    });
    // No force-unlock needed: the lock was released.
    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });

  it.each([1, 2, 3])('SIGKILL at a random point (seed %i): cdkd rollback leaves no orphan', async (seed) => {
    const stackName = `Killed${seed}x${++counter}`;
    await addFault({ service: 'sqs', operation: 'CreateQueue', latencyMs: 200, every: true });
    const run = startDeploy(stackName, manyQueues(10));
    await run.creating;
    const delay = (seed * 7919) % 900;
    await new Promise((resolve) => setTimeout(resolve, delay));
    run.child.kill('SIGKILL');
    await run.done;
    await untilQuiet(sandbox.current.url);
    await admin('faults', { method: 'DELETE' });
    // SIGKILL leaves the lock behind, as the spec says; clearing it is the documented step.
    await runCli(['force-unlock', stackName, '--yes'], { env: env() });
    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect([0, 2], rolledBack.stdout + rolledBack.stderr).toContain(rolledBack.code);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });
});

describe('interrupted destroys', () => {
  it.each([1, 2, 3])(
    'SIGKILL mid-delete (seed %i): diff and deploy see what is gone and re-create exactly that; destroy then finishes clean',
    async (seed) => {
      const stackName = `DestroyKilled${seed}x${++counter}`;
      const assembly = assemblyFor(stackName, manyQueues(8));
      expect((await runCli(['deploy', '-a', assembly], { env: env() })).code).toBe(0);
      const latencyMs = 300;
      await addFault({ service: 'sqs', operation: 'DeleteQueue', latencyMs, every: true });
      // Killed once a delete has finished, however slow the machine: at least one queue is gone.
      const run = startCli(['destroy', '-a', assembly, '--yes', '--concurrency', '3'], ' deleted');
      await run.creating;
      await new Promise((resolve) => setTimeout(resolve, (seed * 7919) % 700));
      run.child.kill('SIGKILL');
      await run.done;
      // The deletes already sent still complete on the server after the client is gone.
      await untilQuiet(sandbox.current.url);
      await admin('faults', { method: 'DELETE' });
      const survivors = (await liveResources(sandbox.current.url)).length;
      expect(survivors).toBeLessThan(8);
      await runCli(['force-unlock', stackName, '--yes'], { env: env() });

      const diff = await runCli(['diff', '-a', assembly, '--json'], { env: env() });
      expect(diff.code, diff.stderr).toBe(0);
      const summary = (JSON.parse(diff.stdout) as Record<string, { summary: Record<string, number> }>)[
        stackName
      ]!.summary;
      expect(summary.create).toBe(8 - survivors);

      const redeployed = await runCli(['deploy', '-a', assembly], { env: env() });
      expect(redeployed.code, redeployed.stderr).toBe(0);
      expect(redeployed.stderr).toContain(`${8 - survivors} created`);
      const state = await stateOf(stackName);
      expect(Object.keys(state!.resources)).toHaveLength(8);
      expect(unmatched(Object.values(state!.resources), await liveResources(sandbox.current.url))).toEqual({
        missing: [],
        extra: [],
      });

      const destroyed = await runCli(['destroy', '-a', assembly, '--yes'], { env: env() });
      expect(destroyed.code, destroyed.stderr).toBe(0);
      expect(await liveResources(sandbox.current.url)).toEqual([]);
      expect(await stateOf(stackName)).toBeUndefined();
    },
  );

  it('a deploy reads only the records a journaled delete names; with none, a no-op deploy makes no SQS call', async () => {
    const stackName = `StaleRead${++counter}`;
    const assembly = assemblyFor(stackName, manyQueues(4));
    expect((await runCli(['deploy', '-a', assembly], { env: env() })).code).toBe(0);
    const state = (await stateOf(stackName))!;
    const gone = state.resources.Queue0!;
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    await sqs.send(new DeleteQueueCommand({ QueueUrl: gone.physicalId }));
    await sqs.send(new DeleteQueueCommand({ QueueUrl: state.resources.Queue1!.physicalId }));
    // A destroy killed after sending Queue0's delete; Queue1 went out of band, which no journal names.
    await putJournal(stackName, [
      {
        seq: 0,
        logicalId: 'Queue0',
        action: 'delete',
        type: 'AWS::SQS::Queue',
        status: 'in-flight',
        physicalId: gone.physicalId,
      },
    ]);
    await admin('calls', { method: 'DELETE' });
    const redeployed = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(redeployed.code, redeployed.stderr).toBe(0);
    expect(redeployed.stderr).toMatch(/Queue0 .* is gone from AWS/);
    expect(redeployed.stderr).toContain('1 created');
    const after = (await stateOf(stackName))!;
    expect(after.resources.Queue0!.physicalId).not.toBe(gone.physicalId);
    // Queue1 went out of band with no journal entry naming it: the deploy does not read it.
    expect(after.resources.Queue1!.physicalId).toBe(state.resources.Queue1!.physicalId);
    const live = await liveResources(sandbox.current.url);
    expect(unmatched(Object.values(after.resources), live)).toEqual({
      missing: [`AWS::SQS::Queue ${state.resources.Queue1!.physicalId}`],
      extra: [],
    });
    await admin('calls', { method: 'DELETE' });
    const noOp = await runCli(['deploy', '-a', assembly], { env: env() });
    expect(noOp.code, noOp.stderr).toBe(0);
    const { calls } = (await admin('calls')) as { calls: Record<string, unknown> };
    expect(Object.keys(calls).filter((key) => key.startsWith('sqs:'))).toEqual([]);
    await runCli(['destroy', '-a', assembly, '--yes'], { env: env() });
  });

  it('a destroy re-run after SIGKILL finishes clean without a deploy in between; a rollback first only settles it', async () => {
    const stackName = `DestroyRerun${++counter}`;
    const assembly = assemblyFor(stackName, manyQueues(6));
    expect((await runCli(['deploy', '-a', assembly], { env: env() })).code).toBe(0);
    await addFault({ service: 'sqs', operation: 'DeleteQueue', latencyMs: 300, every: true });
    const run = startCli(['destroy', '-a', assembly, '--yes', '--concurrency', '2'], 'delete started');
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    await untilQuiet(sandbox.current.url);
    await admin('faults', { method: 'DELETE' });
    await runCli(['force-unlock', stackName, '--yes'], { env: env() });
    // A destroy is not rolled back: the rollback drops the records of what is gone, and nothing else.
    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(rolledBack.stdout).toContain('no rollback journal, nothing to roll back');
    const live = await liveResources(sandbox.current.url);
    expect(unmatched(Object.values((await stateOf(stackName))!.resources), live)).toEqual({
      missing: [],
      extra: [],
    });
    const again = await runCli(['destroy', '-a', assembly, '--yes'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    expect(await stateOf(stackName)).toBeUndefined();
  });

  it('a second SIGINT quits with 130 and still releases the lock, so the next destroy needs no force-unlock', async () => {
    const stackName = `DestroyQuit${++counter}`;
    const assembly = assemblyFor(stackName, manyQueues(6));
    expect((await runCli(['deploy', '-a', assembly], { env: env() })).code).toBe(0);
    await addFault({ service: 'sqs', operation: 'DeleteQueue', latencyMs: 2000, every: true });
    const run = startCli(['destroy', '-a', assembly, '--yes', '--concurrency', '2'], 'delete started', {
      env: env(),
    });
    await run.creating;
    run.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGINT');
    expect(await run.done).toBe(130);
    expect(run.stderr()).toContain('received again');
    await admin('faults', { method: 'DELETE' });
    // destroy fails fast on a held lock: this succeeds only because the lock was released.
    const again = await runCli(['destroy', '-a', assembly, '--yes'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });
});

describe('cdkd rollback --all', () => {
  it('rolls back every stack with a journal, where a bare rollback asks which one', async () => {
    const names = [`AllFirst${++counter}`, `AllSecond${++counter}`];
    for (const stackName of names) {
      await failTopicCreate();
      const failed = await deploy(
        stackName,
        { Resources: { Queue: { Type: 'AWS::SQS::Queue' }, Topic: { ...doomedTopic, DependsOn: 'Queue' } } },
        ['--no-rollback'],
      );
      expect(failed.code).toBe(1);
      await admin('faults', { method: 'DELETE' });
    }
    expect((await liveResources(sandbox.current.url)).length).toBe(2);

    const bare = await runCli(['rollback', '--yes'], { env: env() });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('cdkd rollback --all');
    const both = await runCli(['rollback', names[0]!, '--all'], { env: env() });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('ROLLBACK_FLAGS_CONFLICT');

    const all = await runCli(['rollback', '--all', '--yes'], { env: env() });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    for (const stackName of names) expect(all.stdout).toContain(`${stackName}: rolled back.`);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    const again = await runCli(['rollback', '--all', '--yes'], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No stack has a rollback journal');
    for (const stackName of names)
      await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
  });
});

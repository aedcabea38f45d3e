import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../src/sandbox/admin/faults.js';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli, startCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Recovery after a kill (issue 25, items 5, 7, 8): the built CLI is SIGKILLed after AWS acted on
// a rollback's or a re-create's call and before it heard so (the sandbox holds that answer),
// then the user's next commands run. Afterwards every resource is tracked, every record names a
// live resource, and the deploy leaves AWS as the template says. Each case has a sandbox of its
// own, since the accounting covers all that a sandbox holds.
let sandbox: { readonly current: Sandbox } | undefined;
const url = () => sandbox!.current.url;
const env = () => sandboxEnv(url());
const cli = (args: string[]) => runCli(args, { env: env() });

function ownSandbox(): void {
  const own = useSandbox();
  beforeAll(async () => {
    sandbox = own;
    expect((await cli(['bootstrap'])).code).toBe(0);
  });
}

async function admin(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${url()}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  return response.json();
}
const addFault = (fault: FaultSpec) => admin('faults', { method: 'POST', body: JSON.stringify(fault) });

/** The call takes effect, and its answer is held far longer than the test waits. */
const HELD_ANSWER = { afterApply: true, latencyMs: 120_000 } as const;
/** The next SNS CreateTopic is refused: the resource the failing deploys fail on. */
const TOPIC_REFUSED: FaultSpec = {
  service: 'sns',
  operation: 'CreateTopic',
  errorCode: 'InvalidParameter',
  httpStatus: 400,
};

function assemblyFor(stackName: string, resources: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function callCount(operation: string): Promise<number> {
  const { calls } = (await admin('calls')) as { calls: Record<string, { count: number }> };
  return calls[operation]?.count ?? 0;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs a cdkd command and SIGKILLs it once `landed` holds (what AWS did before it could answer). */
async function killedOnce(args: string[], landed: () => Promise<boolean>): Promise<void> {
  const run = startCli(args, '', { env: env(), times: 0 });
  await until('the held call took effect', landed);
  run.child.kill('SIGKILL');
  await run.done;
  await admin('faults', { method: 'DELETE' });
  expect((await cli(['force-unlock', args[1]!, '--yes'])).code).toBe(0);
}

interface StateRecord {
  type: string;
  physicalId: string;
  properties: Record<string, unknown>;
}

async function recordsOf(stackName: string): Promise<Record<string, StateRecord>> {
  const shown = await cli(['state', 'show', stackName, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { resources: Record<string, StateRecord> }).resources;
}

const liveOf = async (type: string) =>
  (await liveResources(url())).filter((resource) => resource.type === type).map((r) => r.id);

afterEach(async () => {
  await admin('faults', { method: 'DELETE' });
});

describe.each([
  ['cdkd rollback', ['--no-rollback']],
  ['the automatic rollback', []],
])('%s killed while its deletes are in flight, then cdkd deploy (item 5)', (_, flags) => {
  ownSandbox();
  const queues = {
    QueueA: { Type: 'AWS::SQS::Queue' },
    QueueB: { Type: 'AWS::SQS::Queue' },
  };
  const withTopic = {
    ...queues,
    Topic: { Type: 'AWS::SNS::Topic', DependsOn: ['QueueA', 'QueueB'] },
  };

  it('the deploy re-creates what the rollback deleted and records nothing gone', async () => {
    const stackName = `KilledRollback${flags.length}`;
    const dir = assemblyFor(stackName, withTopic);
    await addFault(TOPIC_REFUSED);
    await addFault({ service: 'sqs', operation: 'DeleteQueue', ...HELD_ANSWER, every: true });
    const queueCount = async () => (await liveOf('AWS::SQS::Queue')).length;
    if (flags.length > 0) {
      expect((await cli(['deploy', '-a', dir, ...flags])).code).toBe(1);
      expect(await queueCount()).toBe(2);
      await killedOnce(['rollback', stackName, '--yes'], async () => (await queueCount()) < 2);
    } else {
      await admin('calls', { method: 'DELETE' });
      const deleted = async () => (await callCount('sqs:DeleteQueue')) > 0 && (await queueCount()) < 2;
      await killedOnce(['deploy', stackName, '-a', dir], deleted);
    }

    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stderr).toContain('is gone from AWS (an interrupted run or rollback deleted it)');
    expect(await accountFor(url())).toEqual({ untracked: [], deadRecords: [] });
    expect(await queueCount()).toBe(2);
    expect(Object.keys(await recordsOf(stackName)).sort()).toEqual(['QueueA', 'QueueB', 'Topic']);
  });
});

describe('an automatic rollback of an update killed once AWS took the old value (item 8)', () => {
  ownSandbox();
  it('the next deploy puts the new value back instead of saying "no changes"', async () => {
    const stackName = 'KilledUpdateRollback';
    const queue = (timeout: number) => ({
      Type: 'AWS::SQS::Queue',
      Properties: { VisibilityTimeout: timeout },
    });
    expect((await cli(['deploy', '-a', assemblyFor(stackName, { Queue: queue(30) })])).code).toBe(0);
    const queueUrl = (await recordsOf(stackName)).Queue!.physicalId;
    const sqs = new SQSClient({ endpoint: url(), region: 'us-east-1' });
    const liveTimeout = async () =>
      (
        await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }),
        )
      ).Attributes?.VisibilityTimeout;

    const updated = assemblyFor(stackName, {
      Queue: queue(60),
      Topic: { Type: 'AWS::SNS::Topic', DependsOn: 'Queue' },
    });
    await addFault(TOPIC_REFUSED);
    // The deploy's update is the first call; the rollback's revert the second.
    await addFault({ service: 'sqs', operation: 'SetQueueAttributes', ...HELD_ANSWER, nth: 2 });
    await admin('calls', { method: 'DELETE' });
    const reverted = async () =>
      (await callCount('sqs:SetQueueAttributes')) >= 2 && (await liveTimeout()) === '30';
    await killedOnce(['deploy', stackName, '-a', updated], reverted);

    const deployed = await cli(['deploy', '-a', updated]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stderr).toContain(
      `Queue (AWS::SQS::Queue) ${queueUrl} does not hold the update state records (an interrupted rollback reverted it)`,
    );
    expect(await liveTimeout()).toBe('60');
    expect((await recordsOf(stackName)).Queue!.properties.VisibilityTimeout).toBe(60);
    expect(await accountFor(url())).toEqual({ untracked: [], deadRecords: [] });
  });
});

describe('--recreate-via-cc-api killed while the old resource is deleted (item 7)', () => {
  ownSandbox();
  it('cdkd rollback says the resource is gone (exit 2), and the next deploy makes it again', async () => {
    const stackName = 'KilledRecreateDelete';
    const name = `/${stackName}/p`;
    const dir = assemblyFor(stackName, {
      Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: name, Type: 'String', Value: 'v1' } },
    });
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);

    await addFault({ service: 'ssm', operation: 'DeleteParameter', ...HELD_ANSWER });
    const present = async () => (await liveOf('AWS::SSM::Parameter')).includes(name);
    await killedOnce(
      ['deploy', stackName, '-a', dir, '--recreate-via-cc-api', 'Param', '--yes'],
      async () => !(await present()),
    );

    const rolledBack = await cli(['rollback', stackName, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(2);
    expect(rolledBack.stdout).toContain(
      `Param (AWS::SSM::Parameter): skip: the replacement deleted ${name} first and then failed: it is gone and no longer in state; cdkd deploy creates it again`,
    );

    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await present()).toBe(true);
    expect((await recordsOf(stackName)).Param!.physicalId).toBe(name);
    expect(await accountFor(url())).toEqual({ untracked: [], deadRecords: [] });
  });
});

import { DeleteTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { killedDuringCall } from '../helpers/held-call.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { Session } from '../../src/toolkit/session/session.js';

// Issue 25 item 11: a deploy killed while a create is on its way to AWS. The create lands
// after the kill; the journal entry names where, a recovery command proves the resource is
// the create's own and deletes it, and an entry nothing can settle stays in the journal.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

function assemblyOf(stack: string, resources: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stack, template: { Resources: resources } }]);
  return dir;
}

async function journalOf(stack: string) {
  const backend = await new Session({ statePrefix: 'cdkd' }).stateBackend();
  return backend.journals.read({ stackName: stack, region: 'us-east-1' });
}

const clean = { untracked: [], deadRecords: [] };

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

afterEach(async () => {
  await fetch(`${sandbox.current.url}/_sandbox/latency`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
});

interface Case {
  name: string;
  resource: Record<string, unknown>;
  held: { service: string; operation: string };
}

const cases: Case[] = [
  {
    name: 'an SSM parameter under an explicit Name',
    resource: { Type: 'AWS::SSM::Parameter', Properties: { Name: 'kp-param', Type: 'String', Value: 'v' } },
    held: { service: 'ssm', operation: 'PutParameter' },
  },
  {
    name: 'an IAM role under an explicit RoleName',
    resource: {
      Type: 'AWS::IAM::Role',
      Properties: { RoleName: 'kp-role', AssumeRolePolicyDocument: TRUST },
    },
    held: { service: 'iam', operation: 'CreateRole' },
  },
  {
    name: 'an SQS queue under an explicit QueueName',
    resource: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'kp-queue' } },
    held: { service: 'sqs', operation: 'CreateQueue' },
  },
  {
    name: 'a Cloud Control type (no SDK provider) killed before CreateResource answered',
    resource: {
      Type: 'AWS::Logs::LogStream',
      Properties: { LogGroupName: 'kp-group', LogStreamName: 'kp-stream' },
    },
    held: { service: 'cloudcontrolapi', operation: 'CreateResource' },
  },
  {
    name: 'an SQS queue under a name generated from the create token',
    resource: { Type: 'AWS::SQS::Queue' },
    held: { service: 'sqs', operation: 'CreateQueue' },
  },
];

describe('a deploy killed while a create is in flight', () => {
  it.each(cases.map((entry, index) => ({ ...entry, stack: `KilledCreate${index}` })))(
    '$name: the journal names it, and cdkd rollback proves it the create’s own and deletes it',
    async ({ stack, resource, held }) => {
      const dir = assemblyOf(stack, { Made: resource });
      await killedDuringCall(sandbox.current.url, ['deploy', '-a', dir], { ...held, holdMs: 1500 });
      expect(await liveResources(sandbox.current.url)).toHaveLength(1);
      expect(await accountFor(sandbox.current.url)).toEqual(clean);

      expect((await cli(['force-unlock', stack, '--yes'])).code).toBe(0);
      const rolledBack = await cli(['rollback', stack, '--yes']);
      expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
      expect(rolledBack.stdout).toMatch(/Made \(.+\): delete .+, which the failed create made/);
      expect(await liveResources(sandbox.current.url)).toEqual([]);
      expect(await accountFor(sandbox.current.url)).toEqual(clean);
      expect(await journalOf(stack)).toBeUndefined();
    },
    120_000,
  );

  it('a Cloud Control create killed while Cloud Control works on it: settled through its request token', async () => {
    await fetch(`${sandbox.current.url}/_sandbox/latency`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ types: { 'AWS::Logs::LogStream': { create: 2500 } } }),
    });
    const stack = 'KilledAccepted';
    const dir = assemblyOf(stack, {
      Made: {
        Type: 'AWS::Logs::LogStream',
        Properties: { LogGroupName: 'kp-group', LogStreamName: 'kp-accepted' },
      },
    });
    // Killed at its first status check: Cloud Control accepted the create and has not finished it.
    await killedDuringCall(sandbox.current.url, ['deploy', '-a', dir], {
      service: 'cloudcontrolapi',
      operation: 'GetResourceRequestStatus',
      holdMs: 3000,
    });
    expect((await journalOf(stack))?.document.segments[0]?.operations[0]?.acceptedRequest).toBeDefined();
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
    await cli(['force-unlock', stack, '--yes']);
    const rolledBack = await cli(['rollback', stack, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
  }, 120_000);

  it('cdkd destroy after the kill deletes what the create made before it removes the journal', async () => {
    const stack = 'KilledThenDestroyed';
    const dir = assemblyOf(stack, {
      Kept: { Type: 'AWS::SQS::Queue' },
      Made: {
        Type: 'AWS::SSM::Parameter',
        DependsOn: ['Kept'],
        Properties: { Name: 'kp-destroyed', Type: 'String', Value: 'v' },
      },
    });
    // Kept is created first, so the stack has state when the parameter's create is killed.
    await killedDuringCall(sandbox.current.url, ['deploy', '-a', dir], {
      service: 'ssm',
      operation: 'PutParameter',
      holdMs: 1500,
    });
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
    await cli(['force-unlock', stack, '--yes']);
    const destroyed = await cli(['destroy', '-a', dir, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    expect(await journalOf(stack)).toBeUndefined();
  }, 120_000);

  it('cdkd scrub after the kill settles it the same way, and then finds nothing left', async () => {
    const stack = 'KilledThenScrubbed';
    const dir = assemblyOf(stack, {
      Made: {
        Type: 'AWS::IAM::Role',
        Properties: { RoleName: 'kp-scrubbed', AssumeRolePolicyDocument: TRUST },
      },
    });
    await killedDuringCall(sandbox.current.url, ['deploy', '-a', dir], {
      service: 'iam',
      operation: 'CreateRole',
      holdMs: 1500,
    });
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
    await cli(['force-unlock', stack, '--yes']);
    const scrubbed = await cli(['scrub', '--yes']);
    expect(scrubbed.code, scrubbed.stdout + scrubbed.stderr).toBe(0);
    expect(scrubbed.stdout).toContain('Made (in flight, kp-scrubbed)');
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    expect((await cli(['scrub'])).stdout).toContain('Nothing left behind');
  }, 120_000);

  it('a create nothing can prove either way keeps its entry through rollback, scrub and destroy until --orphan drops it', async () => {
    // CreateTopic returns a topic already holding the name: a name proves nothing, and nothing else does.
    const stack = 'KilledUnproven';
    const dir = assemblyOf(stack, {
      Made: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'kp-topic' } },
    });
    await killedDuringCall(sandbox.current.url, ['deploy', '-a', dir], {
      service: 'sns',
      operation: 'CreateTopic',
      holdMs: 1500,
    });
    const topicArn = 'arn:aws:sns:us-east-1:000000000000:kp-topic';
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
    await cli(['force-unlock', stack, '--yes']);

    const rolledBack = await cli(['rollback', stack, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(2);
    expect(rolledBack.stderr).toContain(
      `cannot tell whether it made its resource (under the name ${topicArn}); the journal keeps the entry`,
    );
    expect(rolledBack.stdout).toContain('the journal keeps one operation');
    const kept = await journalOf(stack);
    expect(kept?.document.segments.flatMap((segment) => segment.operations)).toMatchObject([
      { logicalId: 'Made', action: 'create', status: 'in-flight', name: topicArn },
    ]);
    expect(await accountFor(sandbox.current.url)).toEqual(clean);

    const scrubbed = await cli(['scrub', '--yes']);
    expect(scrubbed.code, scrubbed.stdout + scrubbed.stderr).toBe(2);
    expect(scrubbed.stdout).toContain(
      `the journal keeps what cdkd could not settle: Made (AWS::SNS::Topic, in flight, ${topicArn})`,
    );
    expect((await journalOf(stack))?.document.segments).toHaveLength(1);

    const destroyed = await cli(['destroy', '-a', dir, '--yes']);
    expect(destroyed.code).toBe(1);
    expect(destroyed.stderr).toContain('cannot settle what an interrupted run left in flight');
    expect(await accountFor(sandbox.current.url)).toEqual(clean);

    const orphaned = await cli(['rollback', stack, '--yes', '--orphan', 'Made']);
    expect(orphaned.code, orphaned.stdout + orphaned.stderr).toBe(0);
    expect(await journalOf(stack)).toBeUndefined();
    await new SNSClient({ endpoint: sandbox.current.url, region: 'us-east-1' }).send(
      new DeleteTopicCommand({ TopicArn: topicArn }),
    );
  }, 180_000);
});

describe('a journal entry cdkd rollback and cdkd scrub cannot address (issue 25 item 15)', () => {
  it('is kept, still readable, by both, which say so and exit 2', async () => {
    const stack = 'Unaddressable';
    const backend = await new Session({ statePrefix: 'cdkd' }).stateBackend();
    const ref = { stackName: stack, region: 'us-east-1' };
    // A torn entry: a completed create whose physical id is not a string.
    await backend.journals.writer(ref)(
      {
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
            operations: [
              {
                seq: 0,
                logicalId: 'Torn',
                action: 'create',
                type: 'AWS::SQS::Queue',
                status: 'completed',
                physicalId: 42,
              },
            ],
            importMarks: [],
          },
        ],
      },
      undefined,
    );
    const entry = { logicalId: 'Torn', action: 'create', status: 'completed', physicalId: 42 };

    const rolledBack = await cli(['rollback', stack, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(2);
    expect(rolledBack.stderr).toContain('the journal keeps the entry');
    const afterRollback = await backend.journals.read(ref);
    expect(afterRollback?.document.segments.flatMap((segment) => segment.operations)).toMatchObject([entry]);

    const scrubbed = await cli(['scrub', '--yes']);
    expect(scrubbed.code, scrubbed.stdout + scrubbed.stderr).toBe(2);
    expect(scrubbed.stdout).toContain(
      'the journal keeps what cdkd could not settle: Torn (AWS::SQS::Queue, completed create)',
    );
    const afterScrub = await backend.journals.read(ref);
    expect(afterScrub?.document.segments.flatMap((segment) => segment.operations)).toMatchObject([entry]);
    await backend.journals.remove(ref);
  }, 120_000);
});

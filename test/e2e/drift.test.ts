import {
  CloudWatchLogsClient,
  DescribeLogGroupsCommand,
  PutRetentionPolicyCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd drift on the built CLI: an out-of-band change detected, reverted, then accepted.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const config = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function recorded(stack: string) {
  return JSON.parse((await cli(['state', 'show', stack, '--json'])).stdout).resources;
}

/** The summary `cdkd drift` left beside the stack's state. */
async function lastDrift(stack: string) {
  const s3 = new S3Client({ ...config(), forcePathStyle: true });
  const object = await s3.send(
    new GetObjectCommand({ Bucket: 'cdkd-state-000000000000', Key: `cdkd/${stack}/us-east-1/drift.json` }),
  );
  s3.destroy();
  return JSON.parse(await object.Body!.transformToString());
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd drift', () => {
  it('detects an out-of-band change, reverts it, then accepts one', async () => {
    const queue = { Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } };
    expect((await cli(['deploy', '-a', app('Drifty', queue)])).code).toBe(0);
    const url = (await recorded('Drifty')).Q.physicalId;
    const sqs = new SQSClient(config());
    const setTimeout = (value: string) =>
      sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: value } }));
    const liveTimeout = async () =>
      (
        await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['VisibilityTimeout'] }),
        )
      ).Attributes?.VisibilityTimeout;

    expect((await cli(['drift', 'Drifty', '--fail'])).code).toBe(0);
    await setTimeout('90');
    const seen = await cli(['drift', 'Drifty']);
    expect(seen.code, seen.stderr).toBe(0);
    expect(seen.stdout).toMatch(
      /Drifty Q \(AWS::SQS::Queue\) VisibilityTimeout: applied 30, AWS holds "?90"?/,
    );
    expect((await cli(['drift', 'Drifty', '--fail'])).code).toBe(1);
    const json = JSON.parse((await cli(['drift', 'Drifty', '--json'])).stdout);
    expect(await lastDrift('Drifty')).toMatchObject({
      version: 1,
      mode: 'detect',
      drifted: ['Q'],
      missing: [],
    });
    expect(json.drifted).toMatchObject([
      { logicalId: 'Q', missing: false, properties: [{ property: 'VisibilityTimeout', recorded: 30 }] },
    ]);

    const reverted = await cli(['drift', 'Drifty', '--revert']);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(await liveTimeout()).toBe('30');
    expect((await cli(['drift', 'Drifty', '--fail'])).code).toBe(0);

    await setTimeout('120');
    const accepted = await cli(['drift', 'Drifty', '--accept']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await liveTimeout()).toBe('120');
    expect(Number((await recorded('Drifty')).Q.properties.VisibilityTimeout)).toBe(120);
    expect((await cli(['drift', 'Drifty', '--fail'])).code).toBe(0);
    expect(await lastDrift('Drifty')).toMatchObject({ mode: 'detect', drifted: [], missing: [] });
    // The template still says 30: the next deploy puts it back.
    const diff = await cli(['diff', '-a', app('Drifty', queue)]);
    expect(diff.stdout).toContain('Q (AWS::SQS::Queue): changed: VisibilityTimeout');

    const both = await cli(['drift', 'Drifty', '--accept', '--revert']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--accept and --revert');
  });

  it('reverts a retention added to a never-expiring log group, its read-back 0 meaning no retention', async () => {
    const group = { G: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: 'drift-never-expires' } } };
    expect((await cli(['deploy', '-a', app('Logs', group)])).code).toBe(0);
    expect((await cli(['state', 'refresh-observed', 'Logs'])).code).toBe(0);
    expect((await recorded('Logs')).G.observedProperties.RetentionInDays).toBe(0);
    const logs = new CloudWatchLogsClient(config());
    await logs.send(
      new PutRetentionPolicyCommand({ logGroupName: 'drift-never-expires', retentionInDays: 7 }),
    );

    const seen = await cli(['drift', 'Logs', '--fail']);
    expect(seen.code).toBe(1);
    expect(seen.stdout).toContain('RetentionInDays: applied 0, AWS holds 7');
    const reverted = await cli(['drift', 'Logs', '--revert']);
    expect(reverted.code, reverted.stderr).toBe(0);
    const described = await logs.send(
      new DescribeLogGroupsCommand({ logGroupNamePrefix: 'drift-never-expires' }),
    );
    expect(described.logGroups?.[0]?.retentionInDays).toBeUndefined();
    expect((await cli(['drift', 'Logs', '--fail'])).code).toBe(0);
  });
});

describe('cdkd drift over several stacks', () => {
  it('reads the stacks named, or every one with --all, and asks which when state holds several', async () => {
    const queue = { Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } };
    expect((await cli(['deploy', '-a', app('DriftAllA', queue)])).code).toBe(0);
    expect((await cli(['deploy', '-a', app('DriftAllB', queue)])).code).toBe(0);
    const url = (await recorded('DriftAllB')).Q.physicalId;
    await new SQSClient(config()).send(
      new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { VisibilityTimeout: '45' } }),
    );

    const unnamed = await cli(['drift']);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('DRIFT_STACK_REQUIRED');
    expect(unnamed.stderr).toMatch(/DriftAllA \(us-east-1\).*DriftAllB \(us-east-1\)/);

    const all = await cli(['drift', '--all', '--fail']);
    expect(all.code, all.stderr).toBe(1);
    expect(all.stdout).toContain('DriftAllA: no drift.');
    expect(all.stdout).toMatch(
      /DriftAllB Q \(AWS::SQS::Queue\) VisibilityTimeout: applied 30, AWS holds "?45"?/,
    );

    const named = JSON.parse((await cli(['drift', 'DriftAllA', 'DriftAllB', '--json'])).stdout);
    expect(
      named.map((stack: { stack: string; drifted: unknown[] }) => [stack.stack, stack.drifted.length]),
    ).toEqual([
      ['DriftAllA', 0],
      ['DriftAllB', 1],
    ]);
    const one = JSON.parse((await cli(['drift', 'DriftAllA', '--json'])).stdout);
    expect(one).toMatchObject({ stack: 'DriftAllA', drifted: [] });

    const elsewhere = await cli(['drift', '--all', '--region', 'eu-west-1', '--fail']);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain("cdkd's state holds no stack in eu-west-1.");
    expect((await cli(['drift', '--all', '--region', 'eu-west-1', '--json'])).stdout.trim()).toBe('[]');

    const both = await cli(['drift', 'DriftAllA', '--all', '--json']);
    expect(both.stdout).toBe('');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('DRIFT_SELECTION_CONFLICT');
  });
});

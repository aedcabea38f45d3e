import { GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly, writeJson } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { liveResources, unmatched } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI against the sandbox: every kind of change, a fault
// mid-create, and the refusals that must come before anything is touched.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
let stackCounter = 0;

async function admin(path: string, init: RequestInit = {}) {
  const response = await fetch(`${sandbox.current.url}/_sandbox/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });
  return response.json();
}

async function recorded(
  stack: string,
): Promise<Record<string, { type: string; physicalId: string }> | undefined> {
  const result = await runCli(['state', 'show', stack, '--json'], { env: env() });
  return result.code === 0 ? JSON.parse(result.stdout).resources : undefined;
}

/** What state names against what the sandbox holds: both lists empty when they agree. */
async function drift(resources: Record<string, { type: string; physicalId: string }> | undefined) {
  return unmatched(Object.values(resources ?? {}), await liveResources(sandbox.current.url));
}

function assemblyFor(stackName: string, template: Record<string, unknown>, assets?: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template, ...(assets ? { assets } : {}) }]);
  return dir;
}

async function deploy(stackName: string, template: Record<string, unknown>, extra: string[] = []) {
  return runCli(['deploy', '-a', assemblyFor(stackName, template), ...extra], { env: env() });
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

describe('changes to a deployed stack', () => {
  const stackName = 'Lifecycle';
  const queue = (properties: Record<string, unknown>) => ({
    Type: 'AWS::SQS::Queue',
    Properties: properties,
  });
  const topicReading = {
    Type: 'AWS::SNS::Topic',
    Properties: { DisplayName: { 'Fn::GetAtt': ['Queue', 'QueueName'] } },
  };

  const clientConfig = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });
  async function queueAttributes(queueUrl: string) {
    const sqs = new SQSClient(clientConfig());
    return (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] })))
      .Attributes;
  }
  async function topicAttributes(topicArn: string) {
    const sns = new SNSClient(clientConfig());
    return (await sns.send(new GetTopicAttributesCommand({ TopicArn: topicArn }))).Attributes;
  }

  it('creates, updates in place, replaces, removes and changes a type, recording exactly what exists', async () => {
    const created = await deploy(stackName, {
      Resources: { Queue: queue({ VisibilityTimeout: 30, QueueName: 'lifecycle-one' }), Topic: topicReading },
    });
    expect(created.code, created.stderr).toBe(0);
    const first = (await recorded(stackName))!;
    expect(await topicAttributes(first.Topic!.physicalId)).toMatchObject({ DisplayName: 'lifecycle-one' });

    const updated = await deploy(stackName, {
      Resources: { Queue: queue({ VisibilityTimeout: 60, QueueName: 'lifecycle-one' }), Topic: topicReading },
    });
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toMatch(/Queue\w* \(AWS::SQS::Queue\) updated/);
    const second = (await recorded(stackName))!;
    expect(second.Queue!.physicalId).toBe(first.Queue!.physicalId);
    expect(await queueAttributes(second.Queue!.physicalId)).toMatchObject({ VisibilityTimeout: '60' });

    const replaced = await deploy(stackName, {
      Resources: { Queue: queue({ VisibilityTimeout: 60, QueueName: 'lifecycle-two' }), Topic: topicReading },
    });
    expect(replaced.code, replaced.stderr).toBe(0);
    const third = (await recorded(stackName))!;
    expect(third.Queue!.physicalId).not.toBe(first.Queue!.physicalId);
    expect(await topicAttributes(third.Topic!.physicalId)).toMatchObject({ DisplayName: 'lifecycle-two' });
    expect(await drift(third)).toEqual({ missing: [], extra: [] });

    const removed = await deploy(stackName, { Resources: { Queue: queue({ QueueName: 'lifecycle-two' }) } });
    expect(removed.code, removed.stderr).toBe(0);
    expect(Object.keys((await recorded(stackName))!)).toEqual(['Queue']);

    const retyped = await deploy(stackName, { Resources: { Queue: { Type: 'AWS::SNS::Topic' } } });
    expect(retyped.code, retyped.stderr).toBe(0);
    const last = (await recorded(stackName))!;
    expect(last.Queue!.type).toBe('AWS::SNS::Topic');
    expect(await drift(last)).toEqual({ missing: [], extra: [] });

    const destroyed = await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });
});

describe('a create that fails midway', () => {
  const resources = Object.fromEntries(
    Array.from({ length: 6 }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }]),
  );
  const failFourthCreate = () =>
    admin('faults', {
      method: 'POST',
      body: JSON.stringify({
        service: 'sqs',
        operation: 'CreateQueue',
        errorCode: 'InvalidParameterValue',
        httpStatus: 400,
        message: 'injected by the test',
        nth: 4,
      }),
    });

  it('rolls back automatically: exit 1, and the sandbox and state are as before the deploy', async () => {
    const stackName = `Faulty${++stackCounter}`;
    await failFourthCreate();
    try {
      const result = await deploy(stackName, { Resources: resources }, ['--concurrency', '2']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Error [DEPLOY_FAILED]');
      expect(result.stderr).toContain('injected by the test');
      expect(result.stderr).toContain('Rolled back');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await admin('faults', { method: 'DELETE' });
    }
    expect(await recorded(stackName)).toBeUndefined();
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });

  it('with --no-rollback: state names exactly what exists; cdkd rollback then removes it all', async () => {
    const stackName = `Faulty${++stackCounter}`;
    await failFourthCreate();
    try {
      const result = await deploy(stackName, { Resources: resources }, [
        '--concurrency',
        '2',
        '--no-rollback',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cdkd rollback ${stackName}`);
      const state = await recorded(stackName);
      expect(Object.keys(state!).length).toBeGreaterThan(0);
      expect(Object.keys(state!).length).toBeLessThan(6);
      expect(await drift(state)).toEqual({ missing: [], extra: [] });
    } finally {
      await admin('faults', { method: 'DELETE' });
    }
    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(rolledBack.stdout).toContain('Rollback plan:');
    expect(rolledBack.stdout).toMatch(/Queue\d \(AWS::SQS::Queue\): delete /);
    expect(await liveResources(sandbox.current.url)).toEqual([]);
    const again = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(again.stdout).toContain('no rollback journal');

    const retried = await deploy(stackName, { Resources: resources });
    expect(retried.code, retried.stderr).toBe(0);
    expect(Object.keys((await recorded(stackName))!).length).toBe(6);
    await runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });
});

describe('explicit IAM names under --prefix-user-supplied-names', () => {
  const template = (RoleName: string) => ({
    Resources: {
      Role: {
        Type: 'AWS::IAM::Role',
        Properties: {
          RoleName,
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
            ],
          },
        },
      },
    },
  });

  it('take the stack-name prefix from CDKD_PREFIX_USER_SUPPLIED_NAMES; the flag overrides it', async () => {
    const withEnv = { ...env(), CDKD_PREFIX_USER_SUPPLIED_NAMES: 'true' };
    const prefixed = await runCli(['deploy', '-a', assemblyFor('Prefixed', template('svc'))], {
      env: withEnv,
    });
    expect(prefixed.code, prefixed.stderr).toBe(0);
    expect((await recorded('Prefixed'))!.Role!.physicalId).toBe('Prefixed-svc');

    const plain = await runCli(
      ['deploy', '-a', assemblyFor('Unprefixed', template('svc')), '--no-prefix-user-supplied-names'],
      { env: withEnv },
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect((await recorded('Unprefixed'))!.Role!.physicalId).toBe('svc');

    for (const stack of ['Prefixed', 'Unprefixed']) {
      await runCli(['destroy', '-a', assemblyFor(stack, {}), '--yes'], { env: env() });
    }
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });
});

describe('bad input is refused before anything is touched', () => {
  it('an unknown resource type', async () => {
    const result = await deploy('Unknown', {
      Resources: { Fine: { Type: 'AWS::SQS::Queue' }, Odd: { Type: 'AWS::Nope::Thing' } },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [UNSUPPORTED_RESOURCE_TYPE]');
    expect(result.stderr).toContain('AWS::Nope::Thing');
    expect(await recorded('Unknown')).toBeUndefined();
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });

  it('a missing asset file', async () => {
    const dir = assemblyFor(
      'MissingAsset',
      { Resources: { Fine: { Type: 'AWS::SQS::Queue' } } },
      {
        files: {
          abc123: {
            source: { path: 'asset.abc123', packaging: 'zip' },
            destinations: {
              'current_account-current_region': {
                bucketName: 'cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}',
                objectKey: 'abc123.zip',
              },
            },
          },
        },
      },
    );
    rmSync(join(dir, 'asset.abc123'), { recursive: true, force: true });
    const result = await runCli(['deploy', '-a', dir], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Error [ASSET_NOT_FOUND]');
    expect(await recorded('MissingAsset')).toBeUndefined();
    expect(await liveResources(sandbox.current.url)).toEqual([]);
  });

  it('a template that does not parse as a template', async () => {
    const dir = assemblyFor('Broken', { Resources: { Bad: { Properties: {} } } });
    writeJson(join(dir, 'unused.json'), {});
    const result = await runCli(['deploy', '-a', dir], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Error \[TEMPLATE_INVALID\]: .*Resources\.Bad/);
    expect(await recorded('Broken')).toBeUndefined();
  });
});

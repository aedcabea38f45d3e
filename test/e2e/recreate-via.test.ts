import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli, startCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI against the sandbox: --recreate-via-cc-api / --recreate-via-sdk-provider
// (spec 002), and the Cloud Control UnsupportedAction update fallback.
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

function assemblyFor(stackName: string, template: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

const deploy = (stackName: string, template: Record<string, unknown>, extra: string[] = []) =>
  runCli(['deploy', '-a', assemblyFor(stackName, template), ...extra], { env: env() });

interface Record_ {
  type: string;
  physicalId: string;
  provisionedBy: string;
  properties: Record<string, unknown>;
}

async function stateOf(stack: string): Promise<Record<string, Record_> | undefined> {
  const result = await runCli(['state', 'show', stack, '--json'], { env: env() });
  return result.code === 0
    ? (JSON.parse(result.stdout) as { resources: Record<string, Record_> }).resources
    : undefined;
}

const destroy = (stackName: string) =>
  runCli(['destroy', '-a', assemblyFor(stackName, {}), '--yes'], { env: env() });

// SSM parameters: the sandbox serves one store to SSM's own API and to Cloud Control.
const parameter = (name: string, value = 'v1') => ({
  Resources: {
    Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: name, Type: 'String', Value: value } },
  },
});

const parameterNames = async () =>
  (await liveResources(sandbox.current.url)).filter((r) => r.type === 'AWS::SSM::Parameter').map((r) => r.id);

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
});

afterEach(async () => {
  await admin('faults', { method: 'DELETE' });
});

describe('--recreate-via-cc-api and back with --recreate-via-sdk-provider', () => {
  it('flips provisionedBy each way, keeps the fixed name, prints the prompt and asks', async () => {
    const stackName = `Recreate${++counter}`;
    const template = parameter(`/${stackName}/p`);
    expect((await deploy(stackName, template)).code).toBe(0);
    const made = (await stateOf(stackName))!.Param!;
    expect(made.provisionedBy).toBe('sdk');

    const unasked = await deploy(stackName, template, ['--recreate-via-cc-api', 'Param']);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain(`${stackName}: this deploy destroys and recreates these resources:`);
    expect(unasked.stderr).toContain(
      '    - Param (AWS::SSM::Parameter) [SDK → CC] — re-created via Cloud Control (--recreate-via-cc-api)',
    );
    expect(unasked.stderr).toContain('No terminal to ask on.');
    expect(unasked.stderr).not.toMatch(/\n\s+at /);
    expect((await stateOf(stackName))!.Param).toEqual(made);

    const viaCc = await deploy(stackName, template, ['--recreate-via-cc-api', 'Param', '--yes']);
    expect(viaCc.code, viaCc.stderr).toBe(0);
    const onCc = (await stateOf(stackName))!.Param!;
    expect(onCc.provisionedBy).toBe('cc-api');
    // A fixed-name parameter comes back under the same name.
    expect(onCc.physicalId).toBe(made.physicalId);

    // A plain deploy afterwards keeps it on Cloud Control (sticky), changing nothing.
    const again = await deploy(stackName, template);
    expect(again.code, again.stderr).toBe(0);
    expect((await stateOf(stackName))!.Param!.provisionedBy).toBe('cc-api');

    const back = await deploy(stackName, template, ['--recreate-via-sdk-provider', 'Param', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain('[CC → SDK]');
    const onSdk = (await stateOf(stackName))!.Param!;
    expect(onSdk.provisionedBy).toBe('sdk');
    expect(onSdk.physicalId).toBe(made.physicalId);
    expect(await parameterNames()).toContain(`/${stackName}/p`);
    expect((await destroy(stackName)).code).toBe(0);
  });

  it('renamed in the same deploy, the new parameter is created first and the old one deleted after', async () => {
    const stackName = `RecreateRename${++counter}`;
    expect((await deploy(stackName, parameter(`/${stackName}/a`))).code).toBe(0);
    const renamed = await deploy(stackName, parameter(`/${stackName}/b`), [
      '--recreate-via-cc-api',
      'Param',
      '--yes',
    ]);
    expect(renamed.code, renamed.stderr).toBe(0);
    const record = (await stateOf(stackName))!.Param!;
    expect(record.provisionedBy).toBe('cc-api');
    expect(record.physicalId).toBe(`/${stackName}/b`);
    const names = await parameterNames();
    expect(names).toContain(`/${stackName}/b`);
    expect(names).not.toContain(`/${stackName}/a`);
    expect((await destroy(stackName)).code).toBe(0);
  });

  it('an id in no stack of the run is refused before anything deploys', async () => {
    const stackName = `RecreateUnknown${++counter}`;
    const result = await deploy(stackName, parameter(`/${stackName}/p`), ['--recreate-via-cc-api', 'Nope']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--recreate-via-cc-api names Nope, which no stack of this run declares');
    expect(await stateOf(stackName)).toBeUndefined();
  });
});

describe('a --recreate-via-* in the rollback journal (spec 000: reversed delete-first)', () => {
  async function calls(): Promise<Record<string, { count: number }>> {
    return ((await admin('calls')) as { calls: Record<string, { count: number }> }).calls;
  }
  const withDoomedTopic = (template: Record<string, unknown>) => ({
    Resources: {
      ...(template.Resources as Record<string, unknown>),
      Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'doomed' }, DependsOn: 'Param' },
    },
  });

  it('a deploy failing after the re-create, with --no-rollback: cdkd rollback deletes the new copy, then re-creates the old one on its old layer', async () => {
    const stackName = `RecreateRolled${++counter}`;
    const template = parameter(`/${stackName}/p`);
    expect((await deploy(stackName, template)).code).toBe(0);
    const before = (await stateOf(stackName))!.Param!;

    await admin('faults', {
      method: 'POST',
      body: JSON.stringify({
        service: 'sns',
        operation: 'CreateTopic',
        errorCode: 'InvalidParameter',
        httpStatus: 400,
      }),
    });
    const failed = await deploy(stackName, withDoomedTopic(template), [
      '--recreate-via-cc-api',
      'Param',
      '--yes',
      '--no-rollback',
    ]);
    expect(failed.code).toBe(1);
    expect((await stateOf(stackName))!.Param!.provisionedBy).toBe('cc-api');

    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(rolledBack.stdout).toContain('reverse-replace (delete-first)');
    const restored = (await stateOf(stackName))!.Param!;
    expect(restored.provisionedBy).toBe('sdk');
    expect(restored.physicalId).toBe(before.physicalId);
    expect(await parameterNames()).toContain(`/${stackName}/p`);
    expect((await destroy(stackName)).code).toBe(0);
  });

  it('SIGKILL between the delete and the create: the rollback names the gone resource, and the next deploy makes it again', async () => {
    const stackName = `RecreateKilled${++counter}`;
    const dir = assemblyFor(stackName, parameter(`/${stackName}/p`));
    expect((await runCli(['deploy', '-a', dir], { env: env() })).code).toBe(0);

    // The Cloud Control create is held, then refused, so nothing is made while the process dies.
    await admin('faults', {
      method: 'POST',
      body: JSON.stringify({
        service: 'cloudcontrolapi',
        operation: 'CreateResource',
        errorCode: 'InvalidRequestException',
        httpStatus: 400,
        latencyMs: 60_000,
      }),
    });
    await admin('calls', { method: 'DELETE' });
    const run = startCli(
      ['deploy', '-a', dir, '--recreate-via-cc-api', 'Param', '--yes'],
      'replace started',
      {
        env: env(),
      },
    );
    await run.creating;
    while (!(await calls())['cloudcontrolapi:CreateResource']) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    run.child.kill('SIGKILL');
    await run.done;
    await admin('faults', { method: 'DELETE' });
    // The old parameter went first; state no longer names it, the journal does.
    expect(await parameterNames()).not.toContain(`/${stackName}/p`);
    expect((await stateOf(stackName))!.Param).toBeUndefined();

    await runCli(['force-unlock', stackName, '--yes'], { env: env() });
    const rolledBack = await runCli(['rollback', stackName, '--yes'], { env: env() });
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(2);
    expect(rolledBack.stdout).toContain('Param (AWS::SSM::Parameter)');

    const redeployed = await runCli(['deploy', '-a', dir], { env: env() });
    expect(redeployed.code, redeployed.stderr).toBe(0);
    expect((await stateOf(stackName))!.Param!.provisionedBy).toBe('sdk');
    expect(await parameterNames()).toContain(`/${stackName}/p`);
    expect((await destroy(stackName)).code).toBe(0);
  });
});

describe('the stateful guard on --recreate-via-*', () => {
  it('a table is refused without --force-stateful-recreation, nothing touched', async () => {
    const stackName = `RecreateTable${++counter}`;
    const template = {
      Resources: {
        Table: {
          Type: 'AWS::DynamoDB::Table',
          Properties: {
            TableName: `${stackName}-t`,
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            BillingMode: 'PAY_PER_REQUEST',
          },
        },
      },
    };
    expect((await deploy(stackName, template)).code).toBe(0);
    const before = (await stateOf(stackName))!.Table!;
    const refused = await deploy(stackName, template, ['--recreate-via-cc-api', 'Table', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Table (AWS::DynamoDB::Table)');
    expect(refused.stderr).toContain('--force-stateful-recreation');
    expect((await stateOf(stackName))!.Table).toEqual(before);
    expect((await destroy(stackName)).code).toBe(0);
  });

  it('a bucket holding an object is refused by the probe; with the flag its row shows DATA LOSS', async () => {
    const stackName = `RecreateBucket${++counter}`;
    const bucketName = `recreate-bucket-${counter}`;
    const template = {
      Resources: { Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: bucketName } } },
    };
    expect((await deploy(stackName, template)).code).toBe(0);
    const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
    await s3.send(new PutObjectCommand({ Bucket: bucketName, Key: 'data.txt', Body: 'kept' }));
    const before = (await stateOf(stackName))!.Bucket!;

    const refused = await deploy(stackName, template, ['--recreate-via-cc-api', 'Bucket', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Bucket (AWS::S3::Bucket)');
    expect(refused.stderr).toContain('--force-stateful-recreation');

    const asked = await deploy(stackName, template, [
      '--recreate-via-cc-api',
      'Bucket',
      '--force-stateful-recreation',
    ]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain(
      '    - **DATA LOSS** Bucket (AWS::S3::Bucket) [SDK → CC] — re-created via',
    );
    expect(asked.stderr).toContain(
      '      DATA: all data in Bucket will be lost (no automatic data migration)',
    );
    expect(asked.stderr).toContain('No terminal to ask on.');
    expect((await stateOf(stackName))!.Bucket).toEqual(before);
  });

  it('a bucket whose probe failed shows the "emptiness NOT established" row, with no DATA LOSS prefix', async () => {
    const stackName = `RecreateUnprobed${++counter}`;
    const template = {
      Resources: {
        Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: `recreate-unprobed-${counter}` } },
      },
    };
    expect((await deploy(stackName, template)).code).toBe(0);
    await admin('faults', {
      method: 'POST',
      body: JSON.stringify({
        service: 's3',
        operation: 'ListObjectVersions',
        errorCode: 'AccessDenied',
        httpStatus: 403,
      }),
    });
    const asked = await deploy(stackName, template, ['--recreate-via-cc-api', 'Bucket']);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain(
      '    - Bucket (AWS::S3::Bucket) [SDK → CC] — emptiness NOT established: the live probe failed, so cdkd does not know whether this resource holds data',
    );
    expect(asked.stderr).toContain(
      '      UNKNOWN: if Bucket holds data, the destroy + recreate loses it (no automatic data migration)',
    );
    expect(asked.stderr).not.toContain('**DATA LOSS**');
    expect(asked.stderr).toContain('destroying and re-creating the resources above? No terminal to ask on.');
    expect((await destroy(stackName)).code).toBe(0);
  });
});

describe('the Cloud Control UnsupportedAction update fallback', () => {
  // The sandbox answers UnsupportedActionException for a type with no update handler, which
  // cdkd's planner already replaces; AWS also answers it for types whose schema claims an
  // updatable property, which the fault below stands in for.
  const refuseUpdates = () =>
    admin('faults', {
      method: 'POST',
      body: JSON.stringify({
        service: 'cloudcontrolapi',
        operation: 'UpdateResource',
        errorCode: 'UnsupportedActionException',
        httpStatus: 400,
        message: 'Resource type does not support UPDATE action',
      }),
    });
  const workGroup = (name: string, description: string) => ({
    Resources: {
      Group: { Type: 'AWS::Athena::WorkGroup', Properties: { Name: name, Description: description } },
    },
  });
  const stream = (name: string, retention: number) => ({
    Resources: {
      Stream: {
        Type: 'AWS::Kinesis::Stream',
        Properties: { Name: name, ShardCount: 1, RetentionPeriodHours: retention },
      },
    },
  });

  it('re-creates the resource, the old one deleted first, under the same name', async () => {
    const stackName = `Unsupported${++counter}`;
    expect((await deploy(stackName, workGroup(`${stackName}-wg`, 'one'))).code).toBe(0);
    const before = (await stateOf(stackName))!.Group!;
    expect(before.provisionedBy).toBe('cc-api');

    await refuseUpdates();
    const second = await deploy(stackName, workGroup(`${stackName}-wg`, 'two'));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('Group: Cloud Control refused the update (UnsupportedActionException:');
    expect(second.stderr).toContain('Group (AWS::Athena::WorkGroup) replaced');
    const after = (await stateOf(stackName))!.Group!;
    expect(after.physicalId).toBe(before.physicalId);
    expect(after.properties.Description).toBe('two');
    const live = (await liveResources(sandbox.current.url)).filter(
      (r) => r.type === 'AWS::Athena::WorkGroup',
    );
    expect(live.map((r) => r.id)).toEqual([`${stackName}-wg`]);
    expect((await destroy(stackName)).code).toBe(0);
  });

  it('a stateful resource is refused by the replacement guard without --force-stateful-recreation', async () => {
    const stackName = `UnsupportedStateful${++counter}`;
    expect((await deploy(stackName, stream(`${stackName}-s`, 24))).code).toBe(0);
    const before = (await stateOf(stackName))!.Stream!;

    await refuseUpdates();
    const refused = await deploy(stackName, stream(`${stackName}-s`, 48));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'This deploy would replace stateful resources, destroying their data: Stream (AWS::Kinesis::Stream).',
    );
    expect(refused.stderr).toContain('Pass --force-stateful-recreation');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect((await stateOf(stackName))!.Stream).toEqual(before);

    await refuseUpdates();
    const forced = await deploy(stackName, stream(`${stackName}-s`, 48), ['--force-stateful-recreation']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await stateOf(stackName))!.Stream!.properties.RetentionPeriodHours).toBe(48);
    expect((await destroy(stackName)).code).toBe(0);
  });
});

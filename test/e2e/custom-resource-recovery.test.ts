import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { killedDuringCall, until } from '../helpers/held-call.js';
import { stackResources } from '../helpers/inventory.js';
import { PUT_RESPONSE_JS } from '../helpers/response-put.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25 items 9 and 12: a custom resource whose handler makes a real thing (an object in
// a bucket of the test's own), through the built CLI on the sandbox, which runs the handler.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
/** Named `cdkd-…`, so the sandbox inventory (and so accountFor) leaves it out like cdkd's own buckets. */
const BUCKET = 'cdkd-test-things';
const clean = { untracked: [], deadRecords: [] };

/**
 * Puts `things/<physical id>` on Create and deletes it on Delete, then answers: `Mode: big`
 * pads a Create's answer past CloudFormation's 4,096 bytes; `Mode: slow-delete` works 4 s on
 * a Delete before it deletes.
 */
const HANDLER = `${PUT_RESPONSE_JS}
const { S3Client, PutObjectCommand, DeleteObjectCommand } = require('@aws-sdk/client-s3');
const s3 = new S3Client({ forcePathStyle: true });
exports.handler = async (event) => {
  const props = event.ResourceProperties;
  const physicalId = event.PhysicalResourceId || 'thing-' + props.Name;
  const target = { Bucket: props.Bucket, Key: 'things/' + physicalId };
  if (event.RequestType === 'Delete') {
    if (props.Mode === 'slow-delete') await new Promise((resolve) => setTimeout(resolve, 4000));
    await s3.send(new DeleteObjectCommand(target));
  } else {
    await s3.send(new PutObjectCommand({ ...target, Body: 'made' }));
  }
  const padding = props.Mode === 'big' && event.RequestType === 'Create' ? 'x'.repeat(5000) : '';
  await put(event.ResponseURL, JSON.stringify({
    Status: 'SUCCESS',
    PhysicalResourceId: physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: { Padding: padding },
  }));
};
`;

function assemblyOf(stack: string, name: string, mode: string): string {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: stack,
      template: {
        Resources: {
          Role: {
            Type: 'AWS::IAM::Role',
            Properties: {
              AssumeRolePolicyDocument: {
                Version: '2012-10-17',
                Statement: [
                  {
                    Effect: 'Allow',
                    Principal: { Service: 'lambda.amazonaws.com' },
                    Action: 'sts:AssumeRole',
                  },
                ],
              },
            },
          },
          Handler: {
            Type: 'AWS::Lambda::Function',
            Properties: {
              Runtime: 'nodejs20.x',
              Handler: 'index.handler',
              Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
              Timeout: 30,
              Code: { ZipFile: HANDLER },
            },
          },
          Thing: {
            Type: 'Custom::Thing',
            Properties: {
              ServiceToken: { 'Fn::GetAtt': ['Handler', 'Arn'] },
              Bucket: BUCKET,
              Name: name,
              Mode: mode,
            },
          },
        },
      },
    },
  ]);
  return dir;
}

const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });

async function thingExists(physicalId: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: BUCKET, Key: `things/${physicalId}` }));
    return true;
  } catch {
    return false;
  }
}

async function recorded(stack: string): Promise<string[]> {
  const shown = await cli(['state', 'show', stack, '--json']);
  return shown.code === 0 ? Object.keys(JSON.parse(shown.stdout).resources).sort() : [];
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  await s3().send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 120_000);

describe('a custom resource whose handler made its resource', () => {
  it('answering over 4 KB: the create fails, and the rollback sends a Delete for the physical id it named', async () => {
    const stack = 'CrBigAnswer';
    const deployed = await cli(['deploy', '-a', assemblyOf(stack, 'big', 'big')]);
    expect(deployed.code).toBe(1);
    expect(deployed.stderr).toMatch(/over CloudFormation's limit of 4096/);
    // The handler put its object before answering; the rollback's Delete removed it.
    expect(await thingExists('thing-big')).toBe(false);
    expect(await stackResources(sandbox.current.url)).toEqual([]);
    expect(await accountFor(sandbox.current.url)).toEqual(clean);
  }, 120_000);

  it('its Delete killed while the handler works: cdkd rollback reads the answer and drops the record', async () => {
    const stack = 'CrSlowDelete';
    const dir = assemblyOf(stack, 'slow', 'slow-delete');
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await thingExists('thing-slow')).toBe(true);

    // The destroy deletes Thing first; it is killed once the Delete request reached the handler.
    await killedDuringCall(sandbox.current.url, ['destroy', '-a', dir, '--yes'], {
      service: 'lambda',
      operation: 'Invoke',
      holdMs: 100,
    });
    await until(async () => !(await thingExists('thing-slow')), 100);
    expect(await recorded(stack)).toEqual(['Handler', 'Role', 'Thing']);
    expect(await accountFor(sandbox.current.url)).toEqual(clean);

    expect((await cli(['force-unlock', stack, '--yes'])).code).toBe(0);
    const rolledBack = await cli(['rollback', stack, '--yes']);
    expect(rolledBack.code, rolledBack.stdout + rolledBack.stderr).toBe(0);
    expect(rolledBack.stderr).toContain('Thing (Custom::Thing) thing-slow is gone from AWS');
    expect(await recorded(stack)).toEqual(['Handler', 'Role']);
    expect(await accountFor(sandbox.current.url)).toEqual(clean);

    const destroyed = await cli(['destroy', '-a', dir, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await stackResources(sandbox.current.url)).toEqual([]);
  }, 180_000);
});

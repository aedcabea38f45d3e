import { GetBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 25, item 10: Cloud Control refuses a bucket's update, and the fallback re-creates the
// bucket (spec 002). Its policy went with the old bucket; unchanged in the template, it is
// restored on the new one like any child of a re-created parent.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

async function refuseUpdates(errorCode: string): Promise<void> {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      service: 'cloudcontrolapi',
      operation: 'UpdateResource',
      errorCode,
      httpStatus: 400,
      message: `Refused: ${errorCode}`,
    }),
  });
}

const policy = (bucket: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::000000000000:root' },
      Action: 's3:GetObject',
      Resource: `arn:aws:s3:::${bucket}/*`,
    },
  ],
});

function assembly(stackName: string, bucket: string, acceleration: string): string {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: stackName,
      template: {
        Resources: {
          // AccelerateConfiguration sends the bucket through Cloud Control.
          Bucket: {
            Type: 'AWS::S3::Bucket',
            Properties: { BucketName: bucket, AccelerateConfiguration: { AccelerationStatus: acceleration } },
          },
          Policy: {
            Type: 'AWS::S3::BucketPolicy',
            Properties: { Bucket: { Ref: 'Bucket' }, PolicyDocument: policy(bucket) },
          },
        },
      },
    },
  ]);
  return dir;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

afterEach(async () => {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
});

describe('the update fallback re-creating a bucket with an unchanged policy (item 10)', () => {
  it.each([
    ['UnsupportedActionException', []],
    ['NotUpdatable', ['--replace']],
  ])(
    '%s %s: restores the policy on the new bucket and keeps a readable record of it',
    async (code, flags) => {
      const stackName = `FallbackChildren${code}`;
      const bucket = `fallback-${code.toLowerCase()}`;
      expect((await cli(['deploy', '-a', assembly(stackName, bucket, 'Enabled')])).code).toBe(0);

      await refuseUpdates(code);
      const deployed = await cli([
        'deploy',
        '-a',
        assembly(stackName, bucket, 'Suspended'),
        '--force-stateful-recreation',
        ...flags,
      ]);
      expect(deployed.code, deployed.stderr).toBe(0);
      expect(deployed.stderr).toContain(`Bucket: Cloud Control refused the update (${code}:`);

      const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
      const live = await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }));
      expect(JSON.parse(live.Policy!)).toEqual(policy(bucket));
      const shown = await cli(['state', 'show', stackName, '--json']);
      expect(shown.code, shown.stderr).toBe(0);
      const resources = (JSON.parse(shown.stdout) as { resources: Record<string, { physicalId: string }> })
        .resources;
      expect(resources.Policy).toMatchObject({ type: 'AWS::S3::BucketPolicy', physicalId: bucket });
      expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });

      // The next deploy reads that state and finds nothing to change.
      const again = await cli(['deploy', '-a', assembly(stackName, bucket, 'Suspended')]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('no changes');
    },
  );
});

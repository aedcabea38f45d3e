import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Templates past CloudFormation's 51,200-byte TemplateBody limit: the migration's retain
// update and export's IMPORT change set give CloudFormation a TemplateURL in cdkd's asset
// bucket, under a key cdkd deletes afterwards.
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const ASSETS = 'cdkd-assets-000000000000-us-east-1';
let cfn: CloudFormationClient;
let s3: S3Client;

beforeAll(async () => {
  cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
  s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
  expect((await cli(['bootstrap'])).code).toBe(0);
});
afterAll(() => {
  cfn.destroy();
  s3.destroy();
});

/** A bucket and a log group whose template carries 60 KB of resource metadata. */
function large(prefix: string) {
  return {
    Resources: {
      Data: {
        Type: 'AWS::S3::Bucket',
        Properties: { BucketName: `${prefix}-data` },
        Metadata: { Notes: 'x'.repeat(60_000) },
      },
      Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-jobs` } },
    },
  };
}

function app(stackName: string, template: Record<string, unknown>): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

async function status(stackName: string): Promise<string | undefined> {
  const stacks = (await cfn.send(new DescribeStacksCommand({}))).Stacks ?? [];
  return stacks.find((stack) => stack.StackName === stackName)?.StackStatus;
}

async function settled(stackName: string): Promise<string | undefined> {
  for (;;) {
    const now = await status(stackName);
    if (!now?.endsWith('_IN_PROGRESS')) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function handoverObjects(): Promise<string[]> {
  const listed = await s3.send(
    new ListObjectsV2Command({ Bucket: ASSETS, Prefix: 'cdkd-handover-templates/' }),
  );
  return (listed.Contents ?? []).map((object) => object.Key!);
}

describe('templates over 51,200 bytes in the hand-over', () => {
  it('migrate retains the resources through a TemplateURL, and removes the uploaded template', async () => {
    const template = large('big-moving');
    expect(JSON.stringify(template).length).toBeGreaterThan(51_200);
    await s3.send(new CreateBucketCommand({ Bucket: 'test-templates' }));
    await s3.send(
      new PutObjectCommand({ Bucket: 'test-templates', Key: 'big.json', Body: JSON.stringify(template) }),
    );
    await cfn.send(
      new CreateStackCommand({
        StackName: 'BigMoving',
        TemplateURL: `${sandbox.current.url}/test-templates/big.json`,
      }),
    );
    expect(await settled('BigMoving')).toBe('CREATE_COMPLETE');

    const migrated = await cli([
      'import',
      'BigMoving',
      '--migrate-from-cloudformation',
      '-a',
      app('BigMoving', template),
    ]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(await status('BigMoving')).toBeUndefined();
    const shown = await cli(['state', 'show', 'BigMoving', '--json']);
    expect(Object.keys(JSON.parse(shown.stdout).resources).sort()).toEqual(['Data', 'Jobs']);
    expect(await handoverObjects()).toEqual([]);
  });

  it('export creates the IMPORT change set through a TemplateURL, and removes the uploaded template', async () => {
    const dir = app('BigLeaving', large('big-leaving'));
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const exported = await cli(['export', 'BigLeaving']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await status('BigLeaving')).toBe('IMPORT_COMPLETE');
    const listed = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'BigLeaving' }));
    expect(listed.StackResources?.map((r) => r.PhysicalResourceId).sort()).toEqual([
      'big-leaving-data',
      'big-leaving-jobs',
    ]);
    expect(await handoverObjects()).toEqual([]);
  });
}, 300_000);

import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { accountFor } from '../helpers/accounting.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// What cdkd import must refuse, on the built CLI: a resource another stack manages (unless
// --force), cdkd's own buckets, one resource under two logical ids, and an id of the wrong
// shape. Each refusal records nothing, and every resource stays tracked exactly once.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

async function recorded(
  stack: string,
): Promise<{ resources: Record<string, { physicalId: string }> } | undefined> {
  const shown = await cli(['state', 'show', stack, '--json']);
  return shown.code === 0 ? JSON.parse(shown.stdout) : undefined;
}

const bucket = (name?: string) => ({
  Type: 'AWS::S3::Bucket',
  ...(name !== undefined && { Properties: { BucketName: name } }),
});
const role = (name: string) => ({
  Type: 'AWS::IAM::Role',
  Properties: {
    RoleName: name,
    AssumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
      ],
    },
  },
});

const nothingLost = async () =>
  expect(await accountFor(sandbox.current.url)).toEqual({ untracked: [], deadRecords: [] });

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd import refuses what is not the stack to adopt', () => {
  it('a resource another stack manages: refused naming the owner, or adopted by both under --force with the consequence printed', async () => {
    const owner = app('Owner', { Data: bucket('owned-data'), Role: role('OwnedRole') });
    expect((await cli(['deploy', '-a', owner])).code).toBe(0);
    const thief = app('Thief', { B: bucket(), R: role('ownedrole') });

    const refused = await cli(['import', 'Thief', '-a', thief, '--resource', 'B=owned-data']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('IMPORT_MANAGED_ELSEWHERE');
    expect(refused.stderr).toContain('Owner (us-east-1) manages it as Data');
    expect(refused.stderr).toContain('--force');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // IAM names a role regardless of case, so ownedrole is Owner's OwnedRole (spec 000).
    const folded = await cli(['import', 'Thief', '-a', thief, '--resource', 'R=ownedrole']);
    expect(folded.code).toBe(1);
    expect(folded.stderr).toContain('Owner (us-east-1) manages it as Role');
    expect(await recorded('Thief')).toBeUndefined();
    await nothingLost();

    const forced = await cli(['import', 'Thief', '-a', thief, '--resource', 'B=owned-data', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('also by Owner (us-east-1) Data');
    expect(forced.stderr).toContain('destroying either deletes it');
    expect((await recorded('Thief'))?.resources.B?.physicalId).toBe('owned-data');

    expect((await cli(['state', 'orphan', 'Thief', 'B'])).code).toBe(0);
    expect((await cli(['destroy', '-a', owner, '--yes'])).code).toBe(0);
    await nothingLost();
  }, 180_000);

  it("cdkd's own state and asset buckets, even under --force", async () => {
    const grabber = app('Grabber', { B: bucket() });
    for (const name of ['cdkd-state-000000000000', 'cdkd-assets-000000000000-us-east-1']) {
      const refused = await cli(['import', 'Grabber', '-a', grabber, '--resource', `B=${name}`, '--force']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('IMPORT_CDKD_BUCKET');
      expect(refused.stderr).toContain(`${name} is cdkd's own`);
      await s3().send(new HeadBucketCommand({ Bucket: name }));
    }
    expect(await recorded('Grabber')).toBeUndefined();
    await nothingLost();
  }, 180_000);

  it('one resource under two logical ids: in one command, or beside a record of it', async () => {
    await s3().send(new CreateBucketCommand({ Bucket: 'twice-data' }));
    const twice = app('Twice', { A: bucket(), B: bucket() });

    const both = await cli([
      'import',
      'Twice',
      '-a',
      twice,
      '--resource',
      'A=twice-data',
      '--resource',
      'B=twice-data',
    ]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('IMPORT_DUPLICATE_RESOURCE');
    expect(both.stderr).toContain('for both A and B of stack Twice');
    expect(await recorded('Twice')).toBeUndefined();

    expect((await cli(['import', 'Twice', '-a', twice, '--resource', 'A=twice-data'])).code).toBe(0);
    const again = await cli(['import', 'Twice', '-a', twice, '--resource', 'B=twice-data', '--force']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already recorded in stack Twice as A');
    expect(Object.keys((await recorded('Twice'))!.resources)).toEqual(['A']);
    await nothingLost();
    expect((await cli(['destroy', '-a', twice, '--yes'])).code).toBe(0);
  }, 180_000);

  it('an id of the wrong shape: a clear error, no SDK stack trace, nothing recorded; the queue URL then imports', async () => {
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'my-queue' }));
    const queues = app('Queues', { Q: { Type: 'AWS::SQS::Queue' }, B: bucket() });

    const byName = await cli(['import', 'Queues', '-a', queues, '--resource', 'Q=my-queue']);
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain(
      "Error [IMPORT_ID_INVALID]: Cannot import my-queue as Q (AWS::SQS::Queue): it cannot be the queue's URL",
    );
    expect(byName.stderr).toContain(
      'Give it as --resource Q=https://sqs.us-east-1.amazonaws.com/000000000000/my-queue',
    );
    expect(byName.stdout + byName.stderr).not.toContain('TypeError');

    const byArn = await cli(['import', 'Queues', '-a', queues, '--resource', 'B=arn:aws:s3:::my-queue']);
    expect(byArn.code).toBe(1);
    expect(byArn.stderr).toContain(
      "it is a s3 ARN; cdkd identifies AWS::S3::Bucket resources by the bucket's name",
    );

    const missing = await cli([
      'import',
      'Queues',
      '-a',
      queues,
      '--resource',
      `Q=${QueueUrl!.replace('my-queue', 'no-such-queue')}`,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('AWS holds no such resource');
    expect(await recorded('Queues')).toBeUndefined();

    const imported = await cli(['import', 'Queues', '-a', queues, '--resource', `Q=${QueueUrl}`]);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await recorded('Queues'))?.resources.Q?.physicalId).toBe(QueueUrl);
    await nothingLost();
    expect((await cli(['destroy', '-a', queues, '--yes'])).code).toBe(0);
  }, 180_000);
});

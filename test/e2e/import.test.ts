import {
  CreateBucketCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// cdkd import on the built CLI: a bucket kept by DeletionPolicy Retain is adopted by another
// stack, which then manages it like any of its own resources.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const s3 = () => new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });

function app(stackName: string, resources: Record<string, unknown>) {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  return dir;
}

const cli = (args: string[]) => runCli(args, { env: env() });

async function recorded(stack: string) {
  const shown = await cli(['state', 'show', stack, '--json']);
  return shown.code === 0 ? JSON.parse(shown.stdout) : undefined;
}

async function bucketExists(name: string): Promise<boolean> {
  try {
    await s3().send(new HeadBucketCommand({ Bucket: name }));
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd import', () => {
  const bucket = (name: string, extra: Record<string, unknown> = {}, policy = 'Delete') => ({
    Type: 'AWS::S3::Bucket',
    DeletionPolicy: policy,
    Properties: { BucketName: name, ...extra },
  });

  it('adopts a retained bucket into a new stack, which then updates and destroys it', async () => {
    const kept = await cli(['deploy', '-a', app('Keeper', { Data: bucket('kept-data', {}, 'Retain') })]);
    expect(kept.code, kept.stderr).toBe(0);
    const gone = await cli(['destroy', '-a', app('Keeper', {}), '--yes']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(await bucketExists('kept-data')).toBe(true);

    const adopter = app('Adopter', { Store: bucket('kept-data') });
    const imported = await cli(['import', 'Adopter', '-a', adopter, '--resource', 'Store=kept-data']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('imported Store (AWS::S3::Bucket) kept-data; matches the template');
    const state = await recorded('Adopter');
    expect(state.resources.Store).toMatchObject({
      type: 'AWS::S3::Bucket',
      physicalId: 'kept-data',
      properties: { BucketName: 'kept-data' },
      observedProperties: { BucketName: 'kept-data' },
      attributes: { Arn: 'arn:aws:s3:::kept-data' },
    });

    const unchanged = await cli(['diff', '-a', adopter, '--fail']);
    expect(unchanged.code, unchanged.stdout + unchanged.stderr).toBe(0);

    const versioned = app('Adopter', {
      Store: bucket('kept-data', { VersioningConfiguration: { Status: 'Enabled' } }),
    });
    const updated = await cli(['deploy', '-a', versioned]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toMatch(/Store \(AWS::S3::Bucket\) updated/);
    const versioning = await s3().send(new GetBucketVersioningCommand({ Bucket: 'kept-data' }));
    expect(versioning.Status).toBe('Enabled');

    const destroyed = await cli(['destroy', '-a', versioned, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await bucketExists('kept-data')).toBe(false);
  });

  it('records what AWS holds where it differs from the template, so the next deploy updates it', async () => {
    const made = await cli(['deploy', '-a', app('Maker', { B: bucket('differs-data', {}, 'Retain') })]);
    expect(made.code, made.stderr).toBe(0);
    expect((await cli(['destroy', '-a', app('Maker', {}), '--yes'])).code).toBe(0);

    const wanting = app('Wanting', {
      B: bucket('differs-data', { VersioningConfiguration: { Status: 'Enabled' } }),
    });
    const imported = await cli(['import', 'Wanting', '-a', wanting, '--resource', 'B=differs-data']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('differs from the template in VersioningConfiguration');
    const diff = await cli(['diff', '-a', wanting, '--fail']);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('B (AWS::S3::Bucket): changed: VersioningConfiguration');
    const deployed = await cli(['deploy', '-a', wanting]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const versioning = await s3().send(new GetBucketVersioningCommand({ Bucket: 'differs-data' }));
    expect(versioning.Status).toBe('Enabled');
    expect((await cli(['destroy', '-a', wanting, '--yes'])).code).toBe(0);
  });

  it('settles a deploy refused on a taken name: import the named resource, then the deploy goes through', async () => {
    expect(
      (await cli(['deploy', '-a', app('Earlier', { X: bucket('taken-data', {}, 'Retain') })])).code,
    ).toBe(0);
    expect((await cli(['destroy', '-a', app('Earlier', {}), '--yes'])).code).toBe(0);
    const later = app('Later', { Taken: bucket('taken-data'), Other: { Type: 'AWS::SQS::Queue' } });
    const refused = await cli(['deploy', '-a', later]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('taken-data');

    const imported = await cli(['import', 'Later', '-a', later, '--resource', 'Taken=taken-data']);
    expect(imported.code, imported.stderr).toBe(0);
    const deployed = await cli(['deploy', '-a', later]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const state = await recorded('Later');
    expect(state.resources.Taken.physicalId).toBe('taken-data');
    expect(state.resources.Other).toBeDefined();
    expect((await cli(['destroy', '-a', later, '--yes'])).code).toBe(0);
    expect(await bucketExists('taken-data')).toBe(false);
  });

  it('runs the import command a NAMED_CREATE_COLLISION prints, after which the deploy adopts the queue', async () => {
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    const made = await sqs.send(new CreateQueueCommand({ QueueName: 'held-elsewhere' }));
    const dir = app('Collider', {
      Held: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'held-elsewhere' } },
    });
    const refused = await cli(['deploy', '-a', dir]);
    expect(refused.code).toBe(1);
    const printed = /cdkd import (\S+) --resource (\S+)/.exec(refused.stderr);
    expect(printed, refused.stderr).not.toBeNull();
    expect(printed![2]).toBe(`Held=${made.QueueUrl}`);

    const imported = await cli(['import', printed![1]!, '--resource', printed![2]!, '-a', dir]);
    expect(imported.code, imported.stderr).toBe(0);
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect((await recorded('Collider')).resources.Held.physicalId).toBe(made.QueueUrl);
  });

  it('offers the template resources whose names AWS holds, and imports them with --yes', async () => {
    expect((await cli(['deploy', '-a', app('Seed', { S: bucket('offered-data', {}, 'Retain') })])).code).toBe(
      0,
    );
    expect((await cli(['destroy', '-a', app('Seed', {}), '--yes'])).code).toBe(0);
    const offered = app('Offered', { S: bucket('offered-data'), Fresh: bucket('not-there-yet') });

    const unattended = await cli(['import', 'Offered', '-a', offered]);
    expect(unattended.code).toBe(1);
    expect(unattended.stderr).toContain('Import offered-data as S (AWS::S3::Bucket)?');
    expect(await recorded('Offered')).toBeUndefined();

    const confirmed = await cli(['import', 'Offered', '-a', offered, '--yes']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(Object.keys((await recorded('Offered')).resources)).toEqual(['S']);
    expect((await cli(['destroy', '-a', offered, '--yes'])).code).toBe(0);
  });

  it('refuses an id of another type, a missing resource and a name the template contradicts, recording nothing', async () => {
    const stack = app('Refuser', { B: bucket('refuser-data') });
    const wrongType = await cli([
      'import',
      'Refuser',
      '-a',
      stack,
      '--resource',
      'B=arn:aws:sqs:us-east-1:000000000000:some-queue',
    ]);
    expect(wrongType.code).toBe(1);
    expect(wrongType.stderr).toContain('is a sqs ARN');

    const missing = await cli(['import', 'Refuser', '-a', stack, '--resource', 'B=refuser-data']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('AWS holds no such resource');

    const renamed = await cli(['import', 'Refuser', '-a', stack, '--resource', 'B=other-data']);
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain('The template names B refuser-data');

    const malformed = await cli(['import', 'Refuser', '-a', stack, '--resource', 'B']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('expected <logicalId>=<physicalId>');
    expect(await recorded('Refuser')).toBeUndefined();
  });

  it('records the offered resources as the CDK CLI mapping file, then imports from it in CI', async () => {
    await s3().send(new CreateBucketCommand({ Bucket: 'mapped-data' }));
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    const made = await sqs.send(new CreateQueueCommand({ QueueName: 'mapped-queue' }));
    const dir = app('Mapped', {
      Store: bucket('mapped-data'),
      Jobs: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'mapped-queue' } },
      Other: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'mapped-other' } },
    });
    const file = join(tempDir(), 'mapping.json');

    const recording = await cli(['import', 'Mapped', '-a', dir, '--record-resource-mapping', file, '--yes']);
    expect(recording.code, recording.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ Store: { BucketName: 'mapped-data' } });
    expect(await recorded('Mapped')).toBeUndefined();

    const replayed = await cli(['import', 'Mapped', '-a', dir, '--resource-mapping', file]);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect((await recorded('Mapped')).resources.Store.physicalId).toBe('mapped-data');

    const inline = JSON.stringify({ Jobs: { QueueUrl: made.QueueUrl } });
    const byUrl = await cli(['import', 'Mapped', '-a', dir, '--resource-mapping-inline', inline]);
    expect(byUrl.code, byUrl.stderr).toBe(0);
    expect((await recorded('Mapped')).resources.Jobs.physicalId).toBe(made.QueueUrl);

    const byName = JSON.stringify({ Other: { QueueName: 'mapped-other' } });
    const wrongProperty = await cli(['import', 'Mapped', '-a', dir, '--resource-mapping-inline', byName]);
    expect(wrongProperty.code).toBe(1);
    expect(wrongProperty.stderr).toContain('Error [IMPORT_MAPPING_IDENTIFIER]');
    expect(wrongProperty.stderr).toContain('is identified by QueueUrl');

    const both = await cli([
      'import',
      'Mapped',
      '-a',
      dir,
      '--resource-mapping',
      file,
      '--resource',
      'Other=x',
    ]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Error [IMPORT_FLAGS_CONFLICT]');
    expect(Object.keys((await recorded('Mapped')).resources).sort()).toEqual(['Jobs', 'Store']);
    expect((await cli(['destroy', '-a', dir, '--yes'])).code).toBe(0);
  });
});

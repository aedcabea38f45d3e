import { Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { GetBucketTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, ListQueueTagsCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });

function app(tags: Record<string, string>): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, 'Tagged', { tags });
    new Queue(stack, 'Queue', { queueName: 'tagged-queue' });
    new Bucket(stack, 'Bucket', { bucketName: 'tagged-bucket' });
  });
}

async function queueTags(): Promise<Record<string, string>> {
  const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'tagged-queue' }));
  return (await sqs.send(new ListQueueTagsCommand({ QueueUrl }))).Tags ?? {};
}

async function bucketTags(): Promise<Record<string, string>> {
  const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
  try {
    const { TagSet } = await s3.send(new GetBucketTaggingCommand({ Bucket: 'tagged-bucket' }));
    return Object.fromEntries((TagSet ?? []).map((tag) => [tag.Key!, tag.Value!]));
  } catch {
    return {};
  }
}

/** The CDK Stack's `tags` reach every taggable resource, as CloudFormation propagates them. */
describe('stack tags', () => {
  beforeAll(async () => {
    expect((await cli(['bootstrap'])).code).toBe(0);
  }, 120_000);

  it('are applied on create, changed in place, and removed', async () => {
    const first = await cli(['deploy', '-a', app({ team: 'core', cost: 'a' })]);
    expect(first.code, first.stderr).toBe(0);
    expect(await queueTags()).toMatchObject({ team: 'core', cost: 'a' });
    expect(await bucketTags()).toMatchObject({ team: 'core', cost: 'a' });

    const changed = await cli(['deploy', '-a', app({ team: 'platform' })]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/Queue\S* \(AWS::SQS::Queue\) updated/);
    const queue = await queueTags();
    expect(queue.team).toBe('platform');
    expect(queue).not.toHaveProperty('cost');
    expect(await bucketTags()).not.toHaveProperty('cost');

    const overridden = await cli(['deploy', '-a', app({ team: 'platform' }), '--tags', 'owner=ops']);
    expect(overridden.code, overridden.stderr).toBe(0);
    const replaced = await queueTags();
    expect(replaced.owner).toBe('ops');
    expect(replaced).not.toHaveProperty('team');

    const malformed = await cli(['deploy', '-a', app({}), '--tags', 'owner']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('Error [TAGS_SYNTAX]: --tags owner: expected KEY=VALUE.');
    expect((await queueTags()).owner).toBe('ops');

    const untagged = await cli(['deploy', '-a', app({})]);
    expect(untagged.code, untagged.stderr).toBe(0);
    expect(await queueTags()).not.toHaveProperty('team');
    expect((await cli(['destroy', '-a', app({}), '--yes'])).code).toBe(0);
  });
});

import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  DeleteLogGroupCommand,
  DeleteMetricFilterCommand,
  DeleteRetentionPolicyCommand,
  DescribeLogGroupsCommand,
  DescribeLogStreamsCommand,
  DescribeMetricFiltersCommand,
  ListTagsForResourceCommand,
  PutMetricFilterCommand,
  PutRetentionPolicyCommand,
  PutSubscriptionFilterCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  logs = new CloudWatchLogsClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  logs.destroy();
  await sandbox.stop();
});

const transformation = { metricName: 'Errors', metricNamespace: 'App', metricValue: '1' };

describe('CloudWatch Logs in the sandbox', () => {
  it('creates, describes, sets and removes retention, deletes', async () => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/one', tags: { team: 'a' } }));
    await logs.send(new PutRetentionPolicyCommand({ logGroupName: '/app/one', retentionInDays: 30 }));
    let described = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/app/one' }));
    expect(described.logGroups![0]).toMatchObject({
      logGroupName: '/app/one',
      retentionInDays: 30,
      arn: 'arn:aws:logs:us-east-1:123456789012:log-group:/app/one:*',
      logGroupArn: 'arn:aws:logs:us-east-1:123456789012:log-group:/app/one',
    });
    await logs.send(new DeleteRetentionPolicyCommand({ logGroupName: '/app/one' }));
    described = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/app/one' }));
    expect(described.logGroups![0]!.retentionInDays).toBeUndefined();
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(JSON.stringify(inventory.json)).toContain('/app/one');
    await logs.send(new DeleteLogGroupCommand({ logGroupName: '/app/one' }));
    described = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/app/one' }));
    expect(described.logGroups).toEqual([]);
  });

  it('answers with the AWS error codes', async () => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: 'dup' }));
    expect(await failure(logs.send(new CreateLogGroupCommand({ logGroupName: 'dup' })))).toMatchObject({
      name: 'ResourceAlreadyExistsException',
      status: 400,
    });
    expect(await failure(logs.send(new DeleteLogGroupCommand({ logGroupName: 'nope' })))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 400,
    });
    expect(
      await failure(logs.send(new PutRetentionPolicyCommand({ logGroupName: 'dup', retentionInDays: 31 }))),
    ).toMatchObject({ name: 'InvalidParameterException', status: 400 });
    expect(await failure(logs.send(new CreateLogGroupCommand({ logGroupName: 'bad name!' })))).toMatchObject({
      name: 'InvalidParameterException',
    });
    for (const filterName of ['s1', 's2']) {
      await logs.send(
        new PutSubscriptionFilterCommand({
          logGroupName: 'dup',
          filterName,
          filterPattern: '',
          destinationArn: 'arn:aws:lambda:us-east-1:123456789012:function:f',
        }),
      );
    }
    expect(
      await failure(
        logs.send(
          new PutSubscriptionFilterCommand({
            logGroupName: 'dup',
            filterName: 's3',
            filterPattern: '',
            destinationArn: 'arn:aws:lambda:us-east-1:123456789012:function:f',
          }),
        ),
      ),
    ).toMatchObject({ name: 'LimitExceededException' });
    expect(
      await failure(logs.send(new DeleteMetricFilterCommand({ logGroupName: 'dup', filterName: 'none' }))),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('tags by ARN, with or without the trailing :*', async () => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: 'tagged', tags: { a: '1', b: '2' } }));
    const arn = 'arn:aws:logs:us-east-1:123456789012:log-group:tagged';
    await logs.send(new TagResourceCommand({ resourceArn: `${arn}:*`, tags: { c: '3' } }));
    await logs.send(new UntagResourceCommand({ resourceArn: arn, tagKeys: ['a'] }));
    expect((await logs.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({
      b: '2',
      c: '3',
    });
  });

  it('keeps metric filters and streams in their group', async () => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: 'filtered' }));
    await logs.send(
      new PutMetricFilterCommand({
        logGroupName: 'filtered',
        filterName: 'errors',
        filterPattern: 'ERROR',
        metricTransformations: [transformation],
      }),
    );
    const filters = await logs.send(new DescribeMetricFiltersCommand({ logGroupName: 'filtered' }));
    expect(filters.metricFilters).toMatchObject([{ filterName: 'errors', filterPattern: 'ERROR' }]);
    expect(
      (await logs.send(new DescribeLogStreamsCommand({ logGroupName: 'filtered', limit: 1 }))).logStreams,
    ).toEqual([]);
    await logs.send(new CreateLogStreamCommand({ logGroupName: 'filtered', logStreamName: 's' }));
    const streams = await logs.send(new DescribeLogStreamsCommand({ logGroupName: 'filtered', limit: 1 }));
    expect(streams.logStreams!.map((s) => s.logStreamName)).toEqual(['s']);
  });
});

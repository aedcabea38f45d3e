import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  PutLogEventsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { UiServiceData } from '../../src/toolkit/ui/ui-service-data.js';
import { useSandbox } from '../helpers/sandbox.js';
import { createStubFunction } from '../sandbox/helpers.js';

useSandbox();

describe('UiServiceData', () => {
  it("lists a bucket's objects through ListObjectsV2", async () => {
    const s3 = new S3Client({ region: 'us-east-1', forcePathStyle: true, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'ui-listed' }));
    await s3.send(new PutObjectCommand({ Bucket: 'ui-listed', Key: 'a/b.txt', Body: 'four' }));
    const listing = await new UiServiceData(new AwsClients()).objects('ui-listed');
    expect(listing).toMatchObject({ bucket: 'ui-listed', truncated: false });
    expect(listing.objects.map(({ key, size }) => ({ key, size }))).toEqual([{ key: 'a/b.txt', size: 4 }]);
    s3.destroy();
  });

  it("reads a function's log events from its log group, and none before it printed", async () => {
    const lambda = new LambdaClient({ region: 'us-east-1', maxAttempts: 1 });
    await createStubFunction(lambda, 'ui-logged', '000000000000');
    const data = new UiServiceData(new AwsClients());
    expect(await data.logs('ui-logged')).toEqual({
      functionName: 'ui-logged',
      logGroup: '/aws/lambda/ui-logged',
      events: [],
    });
    const logs = new CloudWatchLogsClient({ region: 'us-east-1', maxAttempts: 1 });
    const group = { logGroupName: '/aws/lambda/ui-logged' };
    await logs.send(new CreateLogGroupCommand(group));
    await logs.send(new CreateLogStreamCommand({ ...group, logStreamName: 's1' }));
    await logs.send(
      new PutLogEventsCommand({
        ...group,
        logStreamName: 's1',
        logEvents: [{ timestamp: Date.UTC(2026, 0, 2), message: 'hello from the function' }],
      }),
    );
    expect((await data.logs('ui-logged')).events).toEqual([
      { timestamp: '2026-01-02T00:00:00.000Z', message: 'hello from the function', stream: 's1' },
    ]);
    lambda.destroy();
    logs.destroy();
  });
});

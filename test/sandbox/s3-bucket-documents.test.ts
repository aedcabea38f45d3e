import {
  CreateBucketCommand,
  DeleteBucketCorsCommand,
  DeleteBucketLifecycleCommand,
  DeleteBucketOwnershipControlsCommand,
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketOwnershipControlsCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketNotificationConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, withSandbox } from './helpers.js';

let s3: S3Client;
let close: () => Promise<void>;
const Bucket = 'documents';

beforeAll(async () => {
  ({ s3, close } = await withSandbox());
  await s3.send(new CreateBucketCommand({ Bucket }));
});
afterAll(async () => close());

describe('sandbox S3 lifecycle, CORS, ownership controls and notifications', () => {
  it('puts, gets and deletes a lifecycle configuration, NoSuchLifecycleConfiguration when absent', async () => {
    const absent = await failure(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket })));
    expect([absent.name, absent.status]).toEqual(['NoSuchLifecycleConfiguration', 404]);
    const rules = [
      { ID: 'expire', Status: 'Enabled' as const, Filter: { Prefix: 'logs/' }, Expiration: { Days: 30 } },
    ];
    await s3.send(
      new PutBucketLifecycleConfigurationCommand({ Bucket, LifecycleConfiguration: { Rules: rules } }),
    );
    const { Rules } = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
    expect(Rules).toEqual(rules);
    const duplicate = await failure(
      s3.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket,
          LifecycleConfiguration: { Rules: [...rules, ...rules] },
        }),
      ),
    );
    expect(duplicate.name).toBe('InvalidArgument');
    await s3.send(new DeleteBucketLifecycleCommand({ Bucket }));
    expect((await failure(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket })))).name).toBe(
      'NoSuchLifecycleConfiguration',
    );
  });

  it('puts, gets and deletes CORS rules, refusing an unsupported method', async () => {
    const rule = { AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAgeSeconds: 60, ID: 'web' };
    await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: [rule] } }));
    expect((await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules).toEqual([rule]);
    const bad = await failure(
      s3.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: { CORSRules: [{ ...rule, AllowedMethods: ['PATCH'] }] },
        }),
      ),
    );
    expect([bad.name, bad.status]).toEqual(['InvalidRequest', 400]);
    await s3.send(new DeleteBucketCorsCommand({ Bucket }));
    expect((await failure(s3.send(new GetBucketCorsCommand({ Bucket })))).name).toBe(
      'NoSuchCORSConfiguration',
    );
  });

  it('has BucketOwnerEnforced by default; put and delete ownership controls', async () => {
    const initial = await s3.send(new GetBucketOwnershipControlsCommand({ Bucket }));
    expect(initial.OwnershipControls?.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    await s3.send(
      new PutBucketOwnershipControlsCommand({
        Bucket,
        OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
      }),
    );
    const { OwnershipControls } = await s3.send(new GetBucketOwnershipControlsCommand({ Bucket }));
    expect(OwnershipControls?.Rules).toEqual([{ ObjectOwnership: 'ObjectWriter' }]);
    await s3.send(new DeleteBucketOwnershipControlsCommand({ Bucket }));
    const gone = await failure(s3.send(new GetBucketOwnershipControlsCommand({ Bucket })));
    expect([gone.name, gone.status]).toEqual(['OwnershipControlsNotFoundError', 404]);
  });

  it('answers an empty notification configuration, then the one put', async () => {
    const empty = await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket }));
    expect(empty.QueueConfigurations).toBeUndefined();
    const queue = {
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:q',
      Events: ['s3:ObjectCreated:*' as const],
      Id: 'q',
    };
    const lambda = {
      LambdaFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:f',
      Events: ['s3:ObjectRemoved:*' as const],
      Id: 'f',
    };
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket,
        NotificationConfiguration: { QueueConfigurations: [queue], LambdaFunctionConfigurations: [lambda] },
      }),
    );
    const read = await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket }));
    expect(read.QueueConfigurations).toEqual([queue]);
    expect(read.LambdaFunctionConfigurations).toEqual([lambda]);
  });
});

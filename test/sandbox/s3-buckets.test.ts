import {
  GetBucketVersioningCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketEncryptionCommand,
  DeleteBucketPolicyCommand,
  DeleteBucketTaggingCommand,
  DeletePublicAccessBlockCommand,
  GetBucketEncryptionCommand,
  GetBucketLocationCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketEncryptionCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { failure, s3Client, withSandbox } from './helpers.js';

describe('S3 buckets', () => {
  let sandbox: Sandbox;
  let s3: S3Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ sandbox, s3, close } = await withSandbox({ foreignBuckets: ['someone-elses-bucket'] }));
  });
  afterAll(() => close());

  it('creates, heads, lists and deletes a bucket', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'lifecycle-bucket' }));
    const head = await s3.send(new HeadBucketCommand({ Bucket: 'lifecycle-bucket' }));
    expect(head.BucketRegion).toBe('us-east-1');
    const listed = await s3.send(new ListBucketsCommand({}));
    expect(listed.Buckets?.map((b) => b.Name)).toContain('lifecycle-bucket');
    expect(listed.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
    await s3.send(new DeleteBucketCommand({ Bucket: 'lifecycle-bucket' }));
    const gone = await failure(s3.send(new HeadBucketCommand({ Bucket: 'lifecycle-bucket' })));
    expect(gone).toMatchObject({ name: 'NotFound', status: 404 });
  });

  it('answers NoSuchBucket (404) for a missing bucket', async () => {
    const error = await failure(s3.send(new GetBucketLocationCommand({ Bucket: 'no-such-bucket-here' })));
    expect(error).toMatchObject({ name: 'NoSuchBucket', status: 404 });
    expect(error.error.BucketName).toBe('no-such-bucket-here');
  });

  it('re-creating your own bucket succeeds in us-east-1 and is BucketAlreadyOwnedByYou (409) elsewhere', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'owned-twice' }));
    await expect(s3.send(new CreateBucketCommand({ Bucket: 'owned-twice' }))).resolves.toBeDefined();

    const euClient = s3Client(sandbox, { region: 'eu-west-1' });
    await euClient.send(new CreateBucketCommand({ Bucket: 'owned-in-europe' }));
    const error = await failure(euClient.send(new CreateBucketCommand({ Bucket: 'owned-in-europe' })));
    expect(error).toMatchObject({ name: 'BucketAlreadyOwnedByYou', status: 409 });
    euClient.destroy();
  });

  it('answers BucketAlreadyExists (409) for a name another account owns, and AccessDenied for its use', async () => {
    const error = await failure(s3.send(new CreateBucketCommand({ Bucket: 'someone-elses-bucket' })));
    expect(error).toMatchObject({ name: 'BucketAlreadyExists', status: 409 });
    const denied = await failure(
      s3.send(new PutObjectCommand({ Bucket: 'someone-elses-bucket', Key: 'k', Body: 'x' })),
    );
    expect(denied).toMatchObject({ name: 'AccessDenied', status: 403 });
  });

  it.each(['UpperCase', 'ab', 'a..b', '192.168.1.1', '-leading-hyphen', 'xn--punycode', 'x'.repeat(64)])(
    'answers InvalidBucketName (400) for %s',
    async (name) => {
      const error = await failure(s3.send(new CreateBucketCommand({ Bucket: name })));
      expect(error).toMatchObject({ name: 'InvalidBucketName', status: 400 });
    },
  );

  it('refuses to delete a non-empty bucket with BucketNotEmpty (409)', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'full-bucket' }));
    await s3.send(new PutObjectCommand({ Bucket: 'full-bucket', Key: 'k', Body: 'x' }));
    const error = await failure(s3.send(new DeleteBucketCommand({ Bucket: 'full-bucket' })));
    expect(error).toMatchObject({ name: 'BucketNotEmpty', status: 409 });
  });

  it('reports an empty LocationConstraint for us-east-1 and the constraint for other regions', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'virginia-bucket' }));
    const virginia = await s3.send(new GetBucketLocationCommand({ Bucket: 'virginia-bucket' }));
    expect(virginia.LocationConstraint).toBeUndefined();

    await s3.send(
      new CreateBucketCommand({
        Bucket: 'frankfurt-bucket',
        CreateBucketConfiguration: { LocationConstraint: 'eu-central-1' },
      }),
    );
    const frankfurt = await s3.send(new GetBucketLocationCommand({ Bucket: 'frankfurt-bucket' }));
    expect(frankfurt.LocationConstraint).toBe('eu-central-1');
    const head = await s3Client(sandbox, { region: 'eu-central-1' }).send(
      new HeadBucketCommand({ Bucket: 'frankfurt-bucket' }),
    );
    expect(head.BucketRegion).toBe('eu-central-1');
  });

  it('answers a request signed for another region with 301, as a regional endpoint does', async () => {
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'tokyo-bucket',
        CreateBucketConfiguration: { LocationConstraint: 'ap-northeast-1' },
      }),
    );
    const get = await failure(s3.send(new GetBucketVersioningCommand({ Bucket: 'tokyo-bucket' })));
    expect(get.name).toBe('PermanentRedirect');
    expect(get.status).toBe(301);
    // HEAD gets a bodiless 301, which the SDK can only report as an unknown error.
    const head = await failure(s3.send(new HeadBucketCommand({ Bucket: 'tokyo-bucket' })));
    expect(head.status).toBe(301);
  });

  it('refuses a location constraint that differs from the regional endpoint', async () => {
    const euClient = s3Client(sandbox, { region: 'eu-west-1' });
    const error = await failure(
      euClient.send(
        new CreateBucketCommand({
          Bucket: 'mismatched-region',
          CreateBucketConfiguration: { LocationConstraint: 'eu-west-2' },
        }),
      ),
    );
    expect(error).toMatchObject({ name: 'IllegalLocationConstraintException', status: 400 });
    euClient.destroy();
  });

  describe('configuration round trips', () => {
    const Bucket = 'configured-bucket';
    beforeAll(() => s3.send(new CreateBucketCommand({ Bucket })));

    it('bucket policy: put, get, delete, then NoSuchBucketPolicy (404)', async () => {
      const policy = JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Deny', Principal: '*', Action: 's3:*', Resource: `arn:aws:s3:::${Bucket}/*` }],
      });
      await s3.send(new PutBucketPolicyCommand({ Bucket, Policy: policy }));
      expect((await s3.send(new GetBucketPolicyCommand({ Bucket }))).Policy).toBe(policy);
      await s3.send(new DeleteBucketPolicyCommand({ Bucket }));
      const error = await failure(s3.send(new GetBucketPolicyCommand({ Bucket })));
      expect(error).toMatchObject({ name: 'NoSuchBucketPolicy', status: 404 });
    });

    it('bucket policy must be JSON: MalformedPolicy (400)', async () => {
      const error = await failure(s3.send(new PutBucketPolicyCommand({ Bucket, Policy: 'not json' })));
      expect(error).toMatchObject({ name: 'MalformedPolicy', status: 400 });
    });

    it('tagging: NoSuchTagSet (404) before, round trip, duplicate keys are InvalidTag', async () => {
      const before = await failure(s3.send(new GetBucketTaggingCommand({ Bucket })));
      expect(before).toMatchObject({ name: 'NoSuchTagSet', status: 404 });
      const TagSet = [
        { Key: 'team', Value: 'platform' },
        { Key: 'cost-center', Value: '42' },
      ];
      await s3.send(new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet } }));
      expect((await s3.send(new GetBucketTaggingCommand({ Bucket }))).TagSet).toEqual(TagSet);
      const duplicate = await failure(
        s3.send(
          new PutBucketTaggingCommand({
            Bucket,
            Tagging: {
              TagSet: [
                { Key: 'a', Value: '1' },
                { Key: 'a', Value: '2' },
              ],
            },
          }),
        ),
      );
      expect(duplicate).toMatchObject({ name: 'InvalidTag', status: 400 });
      await s3.send(new DeleteBucketTaggingCommand({ Bucket }));
      expect(await failure(s3.send(new GetBucketTaggingCommand({ Bucket })))).toMatchObject({
        name: 'NoSuchTagSet',
      });
    });

    it('encryption: SSE-S3 by default, round trip of a KMS rule, delete restores the default', async () => {
      const initial = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
      expect(initial.ServerSideEncryptionConfiguration?.Rules).toEqual([
        { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: false },
      ]);
      const kmsRule = {
        ApplyServerSideEncryptionByDefault: {
          SSEAlgorithm: 'aws:kms' as const,
          KMSMasterKeyID: 'alias/sandbox',
        },
        BucketKeyEnabled: true,
      };
      await s3.send(
        new PutBucketEncryptionCommand({ Bucket, ServerSideEncryptionConfiguration: { Rules: [kmsRule] } }),
      );
      const stored = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
      expect(stored.ServerSideEncryptionConfiguration?.Rules).toEqual([kmsRule]);
      await s3.send(new DeleteBucketEncryptionCommand({ Bucket }));
      const reset = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
      expect(
        reset.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm,
      ).toBe('AES256');
    });

    it('public access block: all on by default, round trip, NoSuchPublicAccessBlockConfiguration once deleted', async () => {
      const initial = await s3.send(new GetPublicAccessBlockCommand({ Bucket }));
      expect(initial.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        IgnorePublicAcls: true,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: true,
      });
      const config = {
        BlockPublicAcls: true,
        IgnorePublicAcls: false,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: false,
      };
      await s3.send(new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: config }));
      expect(
        (await s3.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration,
      ).toEqual(config);
      await s3.send(new DeletePublicAccessBlockCommand({ Bucket }));
      const error = await failure(s3.send(new GetPublicAccessBlockCommand({ Bucket })));
      expect(error).toMatchObject({ name: 'NoSuchPublicAccessBlockConfiguration', status: 404 });
    });
  });
});

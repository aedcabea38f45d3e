import {
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderContext } from '../../src/providers/provider.js';
import { BucketPolicyProvider } from '../../src/providers/s3/bucket-policy.js';
import { BucketProvider, generatedBucketName } from '../../src/providers/s3/bucket.js';
import { registerS3 } from '../../src/providers/s3/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { ResourceMadeError } from '../../src/providers/provider.js';
import { admin, failure } from '../sandbox/helpers.js';
import { failNext, madeError } from './made-helpers.js';
import { ACCOUNT, engineWith, providerContext, startProviderSandbox } from './sqs-helpers.js';

let sandbox: Sandbox;
let context: ProviderContext;
let s3: S3Client;
const buckets = new BucketProvider();
const policies = new BucketPolicyProvider();
const type = 'AWS::S3::Bucket';

beforeAll(async () => {
  sandbox = await startProviderSandbox();
  context = providerContext('Store');
  s3 = await context.clients.s3('us-east-1');
});
afterEach(async () => {
  await admin(sandbox, 'DELETE', 'faults');
});
afterAll(async () => {
  await sandbox.stop();
});

const lifecycle = {
  Rules: [
    { Id: 'logs', Status: 'Enabled', Prefix: 'logs/', ExpirationInDays: '30' },
    {
      Id: 'tmp',
      Status: 'Enabled',
      TagFilters: [{ Key: 'tmp', Value: 'yes' }],
      Prefix: 'tmp/',
      AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
      Transitions: [{ StorageClass: 'GLACIER', TransitionInDays: 90 }],
    },
  ],
};

describe('AWS::S3::Bucket provider', () => {
  it('creates with configuration, updates in place, reads back and deletes', async () => {
    const properties = {
      BucketName: 'store-assets',
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          {
            ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: 'alias/k' },
            BucketKeyEnabled: true,
          },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: 'true',
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: lifecycle,
      CorsConfiguration: {
        CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAge: '300', Id: 'web' }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      NotificationConfiguration: {
        QueueConfigurations: [{ Event: 's3:ObjectCreated:*', Queue: `arn:aws:sqs:us-east-1:${ACCOUNT}:q` }],
      },
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    expect(buckets.uncoveredProperties(type, properties)).toEqual([]);
    const created = await buckets.create({ logicalId: 'Assets', type, properties }, context);
    expect(created.physicalId).toBe('store-assets');
    expect(created.creationIdentity).toMatchObject({ BucketName: 'store-assets', Region: 'us-east-1' });
    const request = { logicalId: 'Assets', type, physicalId: 'store-assets', properties };
    const live = await buckets.read(request, context);
    expect(live!.properties).toMatchObject({
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: properties.BucketEncryption,
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: {
        Rules: [
          { Id: 'logs', Status: 'Enabled', Prefix: 'logs/', ExpirationInDays: 30 },
          { Id: 'tmp', TagFilters: [{ Key: 'tmp', Value: 'yes' }], Prefix: 'tmp/' },
        ],
      },
      CorsConfiguration: {
        CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAge: 300, Id: 'web' }],
      },
      OwnershipControls: properties.OwnershipControls,
      NotificationConfiguration: properties.NotificationConfiguration,
      Tags: properties.Tags,
    });

    const next = {
      ...properties,
      VersioningConfiguration: undefined,
      CorsConfiguration: undefined,
      LifecycleConfiguration: { Rules: [lifecycle.Rules[0]] },
    };
    expect(
      buckets.canUpdateInPlace(type, [
        'VersioningConfiguration',
        'CorsConfiguration',
        'LifecycleConfiguration',
      ]),
    ).toBe(true);
    await buckets.update({ ...request, properties: next, previousProperties: properties }, context);
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'store-assets' }))).Status).toBe(
      'Suspended',
    );
    expect((await failure(s3.send(new GetBucketCorsCommand({ Bucket: 'store-assets' })))).name).toBe(
      'NoSuchCORSConfiguration',
    );
    const { Rules } = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'store-assets' }));
    expect(Rules?.map((rule) => rule.ID)).toEqual(['logs']);

    await buckets.delete(request, context);
    expect(await buckets.read(request, context)).toBeUndefined();
    await buckets.delete(request, context);
  });

  it('fails to delete a bucket holding objects with BucketNotEmpty, as AWS', async () => {
    const created = await buckets.create({ logicalId: 'Full', type, properties: {} }, context);
    await s3.send(new PutObjectCommand({ Bucket: created.physicalId, Key: 'k', Body: 'x' }));
    const refused = await failure(
      buckets.delete({ logicalId: 'Full', type, physicalId: created.physicalId, properties: {} }, context),
    );
    expect(refused.name).toBe('BucketNotEmpty');
  });

  it('refuses an explicit BucketName already held, and one another account holds', async () => {
    await buckets.create({ logicalId: 'First', type, properties: { BucketName: 'store-taken' } }, context);
    const taken = await failure(
      buckets.create({ logicalId: 'Second', type, properties: { BucketName: 'store-taken' } }, context),
    );
    expect(taken.error).toMatchObject({ code: 'NAMED_CREATE_COLLISION' });
    expect(taken.error.message).toContain('store-taken');
    const foreign = await failure(
      buckets.create(
        { logicalId: 'Third', type, properties: { BucketName: 'foreign-owned-bucket' } },
        context,
      ),
    );
    expect(foreign.error).toMatchObject({ code: 'NAMED_CREATE_COLLISION' });
  });

  it('adopts BucketAlreadyOwnedByYou for a generated name (a retried create names it again)', async () => {
    const euContext = { ...context, region: 'eu-west-1' };
    const request = { logicalId: 'Eu', type, properties: {}, idempotencyToken: 'eu-create' };
    const first = await buckets.create(request, euContext);
    expect(first.physicalId).toMatch(/^store-eu-[a-z0-9]{12}$/);
    const again = await buckets.create(
      { ...request, properties: { Tags: [{ Key: 'k', Value: 'v' }] } },
      euContext,
    );
    expect(again.physicalId).toBe(first.physicalId);
    expect(again.creationIdentity).toEqual(first.creationIdentity);
    const other = await buckets.create({ ...request, idempotencyToken: 'another-create' }, euContext);
    expect(other.physicalId).not.toBe(first.physicalId);
  });

  it('takes back the bucket an earlier attempt of the same create made and could not delete', async () => {
    const request = {
      logicalId: 'Retry',
      type,
      idempotencyToken: 'token-1',
      properties: {
        BucketName: 'store-retry',
        CorsConfiguration: { CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'] }] },
      },
    };
    // Non-retryable faults, so the SDK's own retry does not hide them.
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'PutBucketCors',
      errorCode: 'InvalidRequest',
      httpStatus: 400,
    });
    await admin(sandbox, 'POST', 'faults', {
      service: 's3',
      operation: 'DeleteBucket',
      errorCode: 'AccessDenied',
      httpStatus: 403,
    });
    // The bucket is still there: the create says it made it, as the read proves.
    const made = await madeError(buckets.create(request, context), 'InvalidRequest');
    expect(made.made.physicalId).toBe('store-retry');
    const live = await buckets.read({ ...request, physicalId: 'store-retry' }, context);
    expect(live).toBeDefined();
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    expect(made.made.creationIdentity).toMatchObject({ BucketName: 'store-retry', Region: 'us-east-1' });
    const retried = await buckets.create(request, context);
    expect(retried.physicalId).toBe('store-retry');
    expect((await s3.send(new GetBucketCorsCommand({ Bucket: 'store-retry' }))).CORSRules).toHaveLength(1);
    const other = await failure(buckets.create({ ...request, idempotencyToken: 'token-2' }, context));
    expect(other.error).toMatchObject({ code: 'NAMED_CREATE_COLLISION' });
  });

  it('a follow-up failure whose cleanup removed the bucket is the plain error, with no bucket left', async () => {
    await failNext(sandbox, 's3', 'PutBucketVersioning', { errorCode: 'InvalidRequest' });
    const request = {
      logicalId: 'Cleaned',
      type,
      idempotencyToken: 'token-cleaned',
      properties: { BucketName: 'store-cleaned', VersioningConfiguration: { Status: 'Enabled' } },
    };
    const error = await failure(buckets.create(request, context));
    expect(error.error).not.toBeInstanceOf(ResourceMadeError);
    expect(error.name).toBe('InvalidRequest');
    expect(await buckets.read({ ...request, physicalId: 'store-cleaned' }, context)).toBeUndefined();
  });

  it('reports the bucket made, unidentified, when its ListBuckets and the cleanup both fail', async () => {
    await failNext(sandbox, 's3', 'ListBuckets', { errorCode: 'InvalidRequest' });
    await failNext(sandbox, 's3', 'DeleteBucket', { errorCode: 'InvalidRequest' });
    const request = {
      logicalId: 'Unlisted',
      type,
      idempotencyToken: 'token-unlisted',
      properties: { BucketName: 'store-unlisted' },
    };
    const made = await madeError(buckets.create(request, context), 'InvalidRequest');
    expect(made.made).toEqual({ physicalId: 'store-unlisted' });
    expect(await buckets.read({ ...request, physicalId: 'store-unlisted' }, context)).toBeDefined();
    // Its retry takes the bucket back (this account owns it) instead of refusing the name.
    const retried = await buckets.create(request, context);
    expect(retried.physicalId).toBe('store-unlisted');
    expect(retried.creationIdentity).toMatchObject({ BucketName: 'store-unlisted' });
  });

  it('generates lower-case names of at most 63 characters', () => {
    const name = generatedBucketName('My_Stack'.repeat(10), 'LogicalId'.repeat(10));
    expect(name).toHaveLength(63);
    expect(name).toMatch(/^[a-z0-9-]+$/);
  });

  it('reports create-only, unknown and unmappable properties', () => {
    expect(buckets.canUpdateInPlace(type, ['BucketName'])).toBe(false);
    expect(buckets.canUpdateInPlace(type, ['Tags', 'LifecycleConfiguration'])).toBe(true);
    expect(
      buckets.uncoveredProperties(type, {
        WebsiteConfiguration: {},
        LifecycleConfiguration: { Rules: [{ Status: 'Enabled', ExpirationInDays: 1, Unmodelled: 1 }] },
      }),
    ).toEqual(['WebsiteConfiguration', 'LifecycleConfiguration']);
  });

  it('Ref and GetAtt, row by row', async () => {
    const created = await buckets.create(
      { logicalId: 'Refs', type, properties: { BucketName: 'store-refs' } },
      context,
    );
    expect(created.physicalId).toBe('store-refs');
    expect(created.ref).toBeUndefined();
    expect(created.attributes).toEqual({
      Arn: 'arn:aws:s3:::store-refs',
      DomainName: 'store-refs.s3.amazonaws.com',
      RegionalDomainName: 'store-refs.s3.us-east-1.amazonaws.com',
      DualStackDomainName: 'store-refs.s3.dualstack.us-east-1.amazonaws.com',
      WebsiteURL: 'http://store-refs.s3-website-us-east-1.amazonaws.com',
    });
    const { bucketAttributesOf } = await import('../../src/providers/s3/ref-attributes.js');
    expect(bucketAttributesOf('b', 'eu-central-1').WebsiteURL).toBe(
      'http://b.s3-website.eu-central-1.amazonaws.com',
    );
  });
});

describe('AWS::S3::BucketPolicy provider', () => {
  it('puts, updates, reads and deletes the policy; Ref is the bucket name', async () => {
    await buckets.create({ logicalId: 'B', type, properties: { BucketName: 'store-policy' } }, context);
    const document = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Deny', Principal: '*', Action: 's3:*', Resource: '*' }],
    };
    const policyType = 'AWS::S3::BucketPolicy';
    const created = await policies.create(
      { logicalId: 'P', type: policyType, properties: { Bucket: 'store-policy', PolicyDocument: document } },
      context,
    );
    expect(created.physicalId).toBe('store-policy');
    const next = { Bucket: 'store-policy', PolicyDocument: { ...document, Id: 'v2' } };
    expect(policies.canUpdateInPlace(policyType, ['PolicyDocument'])).toBe(true);
    expect(policies.canUpdateInPlace(policyType, ['Bucket'])).toBe(false);
    const request = { logicalId: 'P', type: policyType, physicalId: 'store-policy', properties: next };
    await policies.update(
      { ...request, previousProperties: { Bucket: 'store-policy', PolicyDocument: document } },
      context,
    );
    expect((await policies.read(request, context))!.properties).toEqual(next);
    await policies.delete(request, context);
    expect((await failure(s3.send(new GetBucketPolicyCommand({ Bucket: 'store-policy' })))).name).toBe(
      'NoSuchBucketPolicy',
    );
    expect(await policies.read(request, context)).toBeUndefined();
    await policies.delete(request, context);
  });
});

describe('through the engine', () => {
  it('replaces a bucket on a BucketName change: new bucket, policy follows, old deleted', async () => {
    const engine = await engineWith(registerS3, 's3-provider-state');
    const template = (name: string) => ({
      Resources: {
        Bucket: { Type: type, Properties: { BucketName: name } },
        Policy: {
          Type: 'AWS::S3::BucketPolicy',
          Properties: { Bucket: { Ref: 'Bucket' }, PolicyDocument: { Version: '2012-10-17', Statement: [] } },
        },
      },
      Outputs: { Arn: { Value: { 'Fn::GetAtt': ['Bucket', 'Arn'] } } },
    });
    const stack = (body: Record<string, unknown>) => ({
      stateName: 'S3Stack',
      stackName: 'S3Stack',
      region: 'us-east-1',
      accountId: ACCOUNT,
      template: body,
    });
    await engine.deploy(stack(template('engine-first')), { concurrency: 2 });
    // A bucket is stateful: replacing one needs the same opt-in as on the CLI.
    const result = await engine.deploy(stack(template('engine-second')), {
      concurrency: 2,
      forceStatefulRecreation: true,
    });
    expect(result.outputs.Arn!.value).toBe('arn:aws:s3:::engine-second');
    await s3.send(new GetBucketPolicyCommand({ Bucket: 'engine-second' }));
    expect((await failure(s3.send(new HeadBucketCommand({ Bucket: 'engine-first' })))).status).toBe(404);
  });
});

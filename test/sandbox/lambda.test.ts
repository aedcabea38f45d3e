import {
  AddPermissionCommand,
  CreateAliasCommand,
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  CreateFunctionUrlConfigCommand,
  DeleteEventSourceMappingCommand,
  DeleteFunctionCommand,
  DeleteFunctionConcurrencyCommand,
  DeleteLayerVersionCommand,
  GetAliasCommand,
  GetEventSourceMappingCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  GetFunctionUrlConfigCommand,
  GetLayerVersionCommand,
  GetPolicyCommand,
  ListTagsCommand,
  ListVersionsByFunctionCommand,
  PublishLayerVersionCommand,
  PublishVersionCommand,
  PutFunctionConcurrencyCommand,
  RemovePermissionCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure, lambdaClient, s3Client } from './helpers.js';

const ACCOUNT = '123456789012';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/exec`;
const ZIP = new Uint8Array(Buffer.from('PK fake zip'));

let sandbox: Sandbox;
let lambda: LambdaClient;
let s3: S3Client;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
  s3 = s3Client(sandbox);
  await s3.send(new CreateBucketCommand({ Bucket: 'code' }));
  await s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'fn.zip', Body: 'PK s3 zip' }));
});
afterAll(async () => {
  lambda.destroy();
  s3.destroy();
  await sandbox.stop();
});
afterEach(async () => {
  await admin(sandbox, 'PUT', 'latency', {});
});

function create(name: string, extra: Record<string, unknown> = {}) {
  return lambda.send(
    new CreateFunctionCommand({
      FunctionName: name,
      Role: ROLE,
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: ZIP },
      ...extra,
    }),
  );
}

describe('sandbox Lambda functions', () => {
  it('creates Pending, reads Active, and reports the configuration back', async () => {
    const created = await create('fn-basic', {
      Environment: { Variables: { A: '1' } },
      MemorySize: 256,
      Timeout: 30,
      Tags: { team: 'x' },
    });
    expect(created).toMatchObject({
      FunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:fn-basic`,
      State: 'Pending',
      Version: '$LATEST',
      MemorySize: 256,
      Timeout: 30,
      CodeSize: ZIP.length,
      Architectures: ['x86_64'],
    });
    const got = await lambda.send(new GetFunctionCommand({ FunctionName: 'fn-basic' }));
    expect(got.Configuration).toMatchObject({ State: 'Active', LastUpdateStatus: 'Successful' });
    expect(got.Configuration!.Environment!.Variables).toEqual({ A: '1' });
    expect(got.Tags).toEqual({ team: 'x' });
  });

  it('reads the package from the sandbox S3 and refuses a missing object', async () => {
    const created = await create('fn-s3', { Code: { S3Bucket: 'code', S3Key: 'fn.zip' } });
    expect(created.CodeSize).toBe('PK s3 zip'.length);
    const missing = await failure(create('fn-s3-missing', { Code: { S3Bucket: 'code', S3Key: 'nope.zip' } }));
    expect(missing).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(missing.error.message).toContain('S3 Error Code: NoSuchKey');
    const noBucket = await failure(create('fn-s3-missing', { Code: { S3Bucket: 'gone', S3Key: 'x' } }));
    expect(noBucket.error.message).toContain('S3 Error Code: NoSuchBucket');
  });

  it('answers ResourceConflictException for a duplicate name and 404 for an unknown function', async () => {
    await create('fn-dup');
    expect(await failure(create('fn-dup'))).toMatchObject({ name: 'ResourceConflictException', status: 409 });
    const missing = await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'nothing' })));
    expect(missing).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(missing.error.message).toBe(
      `Function not found: arn:aws:lambda:us-east-1:${ACCOUNT}:function:nothing`,
    );
    expect(await failure(lambda.send(new DeleteFunctionCommand({ FunctionName: 'nothing' })))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('validates the name and the role', async () => {
    expect(await failure(create('bad name'))).toMatchObject({ name: 'ValidationException', status: 400 });
    expect(await failure(create('x'.repeat(65)))).toMatchObject({ name: 'ValidationException' });
    expect(await failure(create('fn-role', { Role: 'not-a-role' }))).toMatchObject({
      name: 'ValidationException',
    });
  });

  it('keeps a Pending function and a running update busy: ResourceConflictException', async () => {
    await admin(sandbox, 'PUT', 'latency', {
      types: { 'AWS::Lambda::Function': { create: 60_000, update: 60_000 } },
    });
    await create('fn-busy');
    const pending = await failure(
      lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'fn-busy', Timeout: 9 })),
    );
    expect(pending).toMatchObject({ name: 'ResourceConflictException', status: 409 });
    expect(pending.error.message).toContain('is currently in the following state: Pending');
    const view = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'fn-busy' }));
    expect(view).toMatchObject({ State: 'Pending', LastUpdateStatus: 'InProgress' });

    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::Lambda::Function': { update: 60_000 } } });
    await create('fn-updating');
    const code = await lambda.send(
      new UpdateFunctionCodeCommand({
        FunctionName: 'fn-updating',
        ZipFile: new Uint8Array(Buffer.from('PK v2')),
      }),
    );
    expect(code.LastUpdateStatus).toBe('InProgress');
    const second = await failure(
      lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'fn-updating', Timeout: 9 })),
    );
    expect(second.name).toBe('ResourceConflictException');
    expect(second.error.message).toContain('An update is in progress for resource');
  });

  it('updates configuration and code, clearing what is sent empty', async () => {
    await create('fn-update', { Environment: { Variables: { A: '1' } }, Description: 'one' });
    const updated = await lambda.send(
      new UpdateFunctionConfigurationCommand({
        FunctionName: 'fn-update',
        Environment: { Variables: {} },
        Description: 'two',
      }),
    );
    expect(updated.LastUpdateStatus).toBe('InProgress');
    const view = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'fn-update' }));
    expect(view).toMatchObject({ Description: 'two', LastUpdateStatus: 'Successful' });
    expect(view.Environment).toBeUndefined();
    const code = await lambda.send(
      new UpdateFunctionCodeCommand({ FunctionName: 'fn-update', S3Bucket: 'code', S3Key: 'fn.zip' }),
    );
    expect(code.CodeSize).toBe('PK s3 zip'.length);
  });

  it('emulates IAM propagation: a new role cannot be assumed inside the window', async () => {
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::IAM::Role': { create: 60_000 } } });
    const young = await failure(create('fn-young', { Role: `arn:aws:iam::${ACCOUNT}:role/brand-new` }));
    expect(young).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(young.error.message).toBe('The role defined for the function cannot be assumed by Lambda.');
    await admin(sandbox, 'PUT', 'latency', {});
    await create('fn-young', { Role: `arn:aws:iam::${ACCOUNT}:role/brand-new` });
  });

  it('tags, untags and sets reserved concurrency', async () => {
    const { FunctionArn } = await create('fn-tags');
    await lambda.send(new TagResourceCommand({ Resource: FunctionArn, Tags: { a: '1', b: '2' } }));
    await lambda.send(new UntagResourceCommand({ Resource: FunctionArn, TagKeys: ['a'] }));
    expect((await lambda.send(new ListTagsCommand({ Resource: FunctionArn }))).Tags).toEqual({ b: '2' });
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'fn-tags', ReservedConcurrentExecutions: 5 }),
    );
    expect((await lambda.send(new GetFunctionCommand({ FunctionName: 'fn-tags' }))).Concurrency).toEqual({
      ReservedConcurrentExecutions: 5,
    });
    await lambda.send(new DeleteFunctionConcurrencyCommand({ FunctionName: 'fn-tags' }));
    expect(
      (await lambda.send(new GetFunctionCommand({ FunctionName: FunctionArn }))).Concurrency,
    ).toBeUndefined();
  });
});

describe('sandbox Lambda permissions, versions and aliases', () => {
  it('adds, reads and removes permission statements', async () => {
    const { FunctionArn } = await create('fn-perm');
    const added = await lambda.send(
      new AddPermissionCommand({
        FunctionName: 'fn-perm',
        StatementId: 's1',
        Action: 'lambda:InvokeFunction',
        Principal: 's3.amazonaws.com',
        SourceArn: 'arn:aws:s3:::b',
      }),
    );
    expect(JSON.parse(added.Statement!)).toMatchObject({
      Sid: 's1',
      Principal: { Service: 's3.amazonaws.com' },
      Resource: FunctionArn,
    });
    const duplicate = await failure(
      lambda.send(
        new AddPermissionCommand({
          FunctionName: 'fn-perm',
          StatementId: 's1',
          Action: 'lambda:InvokeFunction',
          Principal: 's3.amazonaws.com',
        }),
      ),
    );
    expect(duplicate).toMatchObject({ name: 'ResourceConflictException', status: 409 });
    const policy = JSON.parse((await lambda.send(new GetPolicyCommand({ FunctionName: 'fn-perm' }))).Policy!);
    expect(policy.Statement).toHaveLength(1);
    await lambda.send(new RemovePermissionCommand({ FunctionName: 'fn-perm', StatementId: 's1' }));
    expect(
      await failure(lambda.send(new RemovePermissionCommand({ FunctionName: 'fn-perm', StatementId: 's1' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it('publishes versions, points aliases at them and reads qualified configurations', async () => {
    await create('fn-ver', { Description: 'v1' });
    const v1 = await lambda.send(new PublishVersionCommand({ FunctionName: 'fn-ver' }));
    expect(v1).toMatchObject({
      Version: '1',
      FunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:fn-ver:1`,
    });
    expect((await lambda.send(new PublishVersionCommand({ FunctionName: 'fn-ver' }))).Version).toBe('1');
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'fn-ver', Description: 'v2' }));
    expect((await lambda.send(new PublishVersionCommand({ FunctionName: 'fn-ver' }))).Version).toBe('2');
    const versions = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: 'fn-ver' }));
    expect(versions.Versions!.map((version) => version.Version)).toEqual(['$LATEST', '1', '2']);

    const alias = await lambda.send(
      new CreateAliasCommand({ FunctionName: 'fn-ver', Name: 'live', FunctionVersion: '1' }),
    );
    expect(alias.AliasArn).toBe(`arn:aws:lambda:us-east-1:${ACCOUNT}:function:fn-ver:live`);
    expect(
      (await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'fn-ver', Qualifier: 'live' })))
        .Description,
    ).toBe('v1');
    await lambda.send(new UpdateAliasCommand({ FunctionName: 'fn-ver', Name: 'live', FunctionVersion: '2' }));
    expect(
      (await lambda.send(new GetAliasCommand({ FunctionName: 'fn-ver', Name: 'live' }))).FunctionVersion,
    ).toBe('2');
    expect(
      await failure(
        lambda.send(new CreateAliasCommand({ FunctionName: 'fn-ver', Name: 'live', FunctionVersion: '1' })),
      ),
    ).toMatchObject({
      name: 'ResourceConflictException',
    });
    expect(
      await failure(
        lambda.send(new UpdateAliasCommand({ FunctionName: 'fn-ver', Name: 'live', FunctionVersion: '9' })),
      ),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

describe('sandbox Lambda mappings, layers and URLs', () => {
  it('creates, reads and deletes an event source mapping', async () => {
    await create('fn-esm');
    const mapping = await lambda.send(
      new CreateEventSourceMappingCommand({
        FunctionName: 'fn-esm',
        EventSourceArn: 'arn:aws:sqs:us-east-1:123456789012:q',
        BatchSize: 5,
      }),
    );
    expect(mapping).toMatchObject({ State: 'Creating', BatchSize: 5 });
    const got = await lambda.send(new GetEventSourceMappingCommand({ UUID: mapping.UUID }));
    expect(got).toMatchObject({
      State: 'Enabled',
      FunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:fn-esm`,
    });
    await lambda.send(new DeleteEventSourceMappingCommand({ UUID: mapping.UUID }));
    expect(
      await failure(lambda.send(new GetEventSourceMappingCommand({ UUID: mapping.UUID }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it('publishes layer versions with numbers that are never reused', async () => {
    const first = await lambda.send(
      new PublishLayerVersionCommand({ LayerName: 'deps', Content: { ZipFile: ZIP } }),
    );
    expect(first).toMatchObject({
      Version: 1,
      LayerVersionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:layer:deps:1`,
    });
    await lambda.send(new DeleteLayerVersionCommand({ LayerName: 'deps', VersionNumber: 1 }));
    expect(
      await failure(lambda.send(new GetLayerVersionCommand({ LayerName: 'deps', VersionNumber: 1 }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
    });
    const second = await lambda.send(
      new PublishLayerVersionCommand({ LayerName: 'deps', Content: { S3Bucket: 'code', S3Key: 'fn.zip' } }),
    );
    expect(second.Version).toBe(2);
  });

  it('creates a function URL once per qualifier', async () => {
    await create('fn-url');
    const url = await lambda.send(
      new CreateFunctionUrlConfigCommand({ FunctionName: 'fn-url', AuthType: 'NONE' }),
    );
    expect(url.FunctionUrl).toMatch(/^https:\/\/[a-z0-9]{32}\.lambda-url\.us-east-1\.on\.aws\/$/);
    expect(
      await failure(
        lambda.send(new CreateFunctionUrlConfigCommand({ FunctionName: 'fn-url', AuthType: 'NONE' })),
      ),
    ).toMatchObject({
      name: 'ResourceConflictException',
    });
    expect((await lambda.send(new GetFunctionUrlConfigCommand({ FunctionName: 'fn-url' }))).AuthType).toBe(
      'NONE',
    );
  });

  it('lists what it holds in the inventory and counts only mutating calls as such', async () => {
    const { json } = await admin(sandbox, 'GET', 'inventory');
    const lambdaInventory = json.lambda as Record<string, Array<{ id: string }>>;
    expect(lambdaInventory['AWS::Lambda::Function']!.map((entry) => entry.id)).toContain('fn-basic');
    expect(lambdaInventory['AWS::Lambda::Alias']!.map((entry) => entry.id)).toContain(
      `arn:aws:lambda:us-east-1:${ACCOUNT}:function:fn-ver:live`,
    );
    expect(lambdaInventory['AWS::Lambda::Permission']).toEqual([]);

    await admin(sandbox, 'DELETE', 'calls');
    await lambda.send(new GetFunctionCommand({ FunctionName: 'fn-basic' }));
    await lambda.send(
      new PutFunctionConcurrencyCommand({ FunctionName: 'fn-basic', ReservedConcurrentExecutions: 1 }),
    );
    expect((await admin(sandbox, 'GET', 'calls')).json.calls).toEqual({
      'lambda:GetFunction': { count: 1, mutating: false },
      'lambda:PutFunctionConcurrency': { count: 1, mutating: true },
    });
  });
});

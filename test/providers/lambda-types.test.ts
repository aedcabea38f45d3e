import {
  GetAliasCommand,
  GetEventSourceMappingCommand,
  GetFunctionEventInvokeConfigCommand,
  GetFunctionUrlConfigCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { ALIAS_DESCRIPTION } from '../../src/providers/lambda/alias.js';
import { LambdaChildProvider } from '../../src/providers/lambda/child-family.js';
import { EVENT_INVOKE_CONFIG_DESCRIPTION } from '../../src/providers/lambda/event-invoke-config.js';
import { LambdaEventSourceMappingProvider } from '../../src/providers/lambda/event-source-mapping.js';
import { LambdaFunctionProvider } from '../../src/providers/lambda/function.js';
import { LambdaLayerVersionProvider } from '../../src/providers/lambda/layer-version.js';
import { LambdaPermissionProvider } from '../../src/providers/lambda/permission.js';
import { URL_DESCRIPTION } from '../../src/providers/lambda/url.js';
import { LambdaVersionProvider } from '../../src/providers/lambda/version.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import {
  ACCOUNT,
  functionProperties,
  lambdaClientFor,
  lambdaContext,
  scaledClock,
} from './lambda-helpers.js';

useSandbox();
let context: ProviderContext;
const clock = scaledClock(0);
const FN = 'types-fn';
const FN_ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${FN}`;

beforeAll(async () => {
  context = lambdaContext('TypesStack');
  await new LambdaFunctionProvider({ clock }).create(
    { logicalId: 'Fn', type: 'AWS::Lambda::Function', properties: functionProperties({ FunctionName: FN }) },
    context,
  );
  const s3 = await new AwsClients().s3();
  await s3.send(new CreateBucketCommand({ Bucket: 'layers' }));
  await s3.send(new PutObjectCommand({ Bucket: 'layers', Key: 'deps.zip', Body: 'PK layer' }));
});

describe('AWS::Lambda::Permission provider', () => {
  const type = 'AWS::Lambda::Permission';
  const provider = new LambdaPermissionProvider();
  const properties = {
    FunctionName: FN_ARN,
    Action: 'lambda:InvokeFunction',
    Principal: '111122223333',
    SourceArn: 'arn:aws:s3:::b',
  };

  it('adds a statement named by a generated id, reads it back, and removes it', async () => {
    const created = await provider.create({ logicalId: 'Invoke', type, properties }, context);
    expect(created.physicalId).toMatch(/^TypesStack-Invoke-[A-Z0-9]{12}$/);
    expect(created.attributes).toEqual({ Id: created.physicalId });
    const request = { logicalId: 'Invoke', type, physicalId: created.physicalId, properties };
    expect((await provider.read(request, context))!.properties).toEqual(properties);
    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
    await provider.delete(request, context);
  });

  it('a replayed create (same idempotency token) adopts the statement its first attempt added', async () => {
    const request = { logicalId: 'Replay', type, properties, idempotencyToken: 'perm-token' };
    const first = await provider.create(request, context);
    const second = await provider.create(request, context);
    expect(second.physicalId).toBe(first.physicalId);
    expect(second.creationIdentity).toEqual(first.creationIdentity);
    const other = await provider.create({ ...request, idempotencyToken: 'other-token' }, context);
    expect(other.physicalId).not.toBe(first.physicalId);
  });

  it('has no property that updates in place', () => {
    for (const property of Object.keys(properties))
      expect(provider.canUpdateInPlace(type, [property])).toBe(false);
  });
});

describe('AWS::Lambda::Version and AWS::Lambda::Alias providers', () => {
  it('publishes a version, points an alias at it, moves the alias in place, and deletes both', async () => {
    const versions = new LambdaVersionProvider({ clock });
    const version = await versions.create(
      {
        logicalId: 'V',
        type: 'AWS::Lambda::Version',
        properties: { FunctionName: FN, Description: 'first' },
      },
      context,
    );
    expect(version).toMatchObject({
      physicalId: `${FN_ARN}:1`,
      attributes: { FunctionArn: `${FN_ARN}:1`, Version: '1' },
    });
    expect(versions.canUpdateInPlace('AWS::Lambda::Version', ['Description'])).toBe(false);

    const aliases = new LambdaChildProvider(ALIAS_DESCRIPTION);
    const type = 'AWS::Lambda::Alias';
    const properties = { FunctionName: FN, Name: 'stable', FunctionVersion: '1' };
    const alias = await aliases.create({ logicalId: 'A', type, properties }, context);
    expect(alias).toMatchObject({
      physicalId: `${FN_ARN}:stable`,
      attributes: { AliasArn: `${FN_ARN}:stable` },
    });
    expect(aliases.canUpdateInPlace(type, ['FunctionVersion', 'Description', 'RoutingConfig'])).toBe(true);
    expect(aliases.canUpdateInPlace(type, ['Name'])).toBe(false);

    const request = { logicalId: 'A', type, physicalId: alias.physicalId, properties };
    const next = { ...properties, FunctionVersion: '$LATEST', Description: 'moved' };
    await aliases.update({ ...request, properties: next, previousProperties: properties }, context);
    const client = await lambdaClientFor(context);
    expect(await client.send(new GetAliasCommand({ FunctionName: FN, Name: 'stable' }))).toMatchObject({
      FunctionVersion: '$LATEST',
      Description: 'moved',
    });
    expect((await aliases.read({ ...request, properties: next }, context))!.properties).toMatchObject(next);
    await aliases.delete(request, context);
    await expect(
      client.send(new GetAliasCommand({ FunctionName: FN, Name: 'stable' })),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });

    const versionRequest = {
      logicalId: 'V',
      type: 'AWS::Lambda::Version',
      physicalId: version.physicalId,
      properties: { FunctionName: FN },
    };
    expect((await versions.read(versionRequest, context))!.attributes).toEqual({
      FunctionArn: `${FN_ARN}:1`,
      Version: '1',
    });
    await versions.delete(versionRequest, context);
    expect(await versions.read(versionRequest, context)).toBeUndefined();
  });
});

describe('AWS::Lambda::EventSourceMapping provider', () => {
  it('creates a mapping, waits for it to settle, updates the batch size in place and deletes it', async () => {
    const provider = new LambdaEventSourceMappingProvider({ clock });
    const type = 'AWS::Lambda::EventSourceMapping';
    const properties = {
      FunctionName: FN,
      EventSourceArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:jobs`,
      BatchSize: '10',
    };
    const created = await provider.create({ logicalId: 'M', type, properties }, context);
    expect(created.physicalId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.attributes).toEqual({
      Id: created.physicalId,
      EventSourceMappingArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:event-source-mapping:${created.physicalId}`,
    });
    expect(provider.canUpdateInPlace(type, ['BatchSize', 'Enabled'])).toBe(true);
    expect(provider.canUpdateInPlace(type, ['EventSourceArn'])).toBe(false);
    expect(provider.uncoveredProperties(type, { ...properties, FilterCriteria: {} })).toEqual([
      'FilterCriteria',
    ]);
    const request = { logicalId: 'M', type, physicalId: created.physicalId, properties };
    const next = { ...properties, BatchSize: 5, Enabled: 'false' };
    await provider.update({ ...request, properties: next, previousProperties: properties }, context);
    const client = await lambdaClientFor(context);
    expect(await client.send(new GetEventSourceMappingCommand({ UUID: created.physicalId }))).toMatchObject({
      BatchSize: 5,
      State: 'Disabled',
    });
    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
    await provider.delete(request, context);
  });
});

describe('AWS::Lambda::LayerVersion provider', () => {
  it('publishes a version from S3 with a generated layer name and deletes it', async () => {
    const provider = new LambdaLayerVersionProvider();
    const type = 'AWS::Lambda::LayerVersion';
    const properties = {
      Content: { S3Bucket: 'layers', S3Key: 'deps.zip' },
      CompatibleRuntimes: ['nodejs20.x'],
    };
    const created = await provider.create({ logicalId: 'Deps', type, properties }, context);
    expect(created.physicalId).toMatch(
      new RegExp(`^arn:aws:lambda:us-east-1:${ACCOUNT}:layer:TypesStack-Deps-[A-Z0-9]{12}:1$`),
    );
    expect(created.attributes).toEqual({ LayerVersionArn: created.physicalId });
    expect(provider.canUpdateInPlace(type, ['Description'])).toBe(false);
    const request = { logicalId: 'Deps', type, physicalId: created.physicalId, properties };
    expect((await provider.read(request, context))!.properties).toMatchObject({
      CompatibleRuntimes: ['nodejs20.x'],
    });
    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
    await provider.delete(request, context);
  });
});

describe('AWS::Lambda::Url provider', () => {
  it('creates a URL, changes its auth type in place and deletes it', async () => {
    const provider = new LambdaChildProvider(URL_DESCRIPTION);
    const type = 'AWS::Lambda::Url';
    const properties = { TargetFunctionArn: FN_ARN, AuthType: 'AWS_IAM' };
    const created = await provider.create({ logicalId: 'U', type, properties }, context);
    expect(created.physicalId).toBe(FN_ARN);
    expect(created.attributes).toMatchObject({ FunctionArn: FN_ARN });
    expect(created.attributes.FunctionUrl).toMatch(
      /^https:\/\/[a-z0-9]{32}\.lambda-url\.us-east-1\.on\.aws\/$/,
    );
    expect(provider.canUpdateInPlace(type, ['AuthType', 'Cors', 'InvokeMode'])).toBe(true);
    expect(provider.canUpdateInPlace(type, ['Qualifier'])).toBe(false);
    const request = { logicalId: 'U', type, physicalId: created.physicalId, properties };
    const next = { ...properties, AuthType: 'NONE' };
    await provider.update({ ...request, properties: next, previousProperties: properties }, context);
    const client = await lambdaClientFor(context);
    expect((await client.send(new GetFunctionUrlConfigCommand({ FunctionName: FN }))).AuthType).toBe('NONE');
    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
    await provider.delete(request, context);
  });
});

describe('AWS::Lambda::EventInvokeConfig provider', () => {
  const provider = new LambdaChildProvider(EVENT_INVOKE_CONFIG_DESCRIPTION);
  const type = 'AWS::Lambda::EventInvokeConfig';
  const properties = {
    FunctionName: FN,
    Qualifier: '$LATEST',
    MaximumRetryAttempts: 1,
    MaximumEventAgeInSeconds: 600,
    DestinationConfig: { OnFailure: { Destination: `arn:aws:sqs:us-east-1:${ACCOUNT}:dlq` } },
  };
  const get = async () =>
    (await lambdaClientFor(context)).send(
      new GetFunctionEventInvokeConfigCommand({ FunctionName: FN, Qualifier: '$LATEST' }),
    );

  it('puts the settings under FunctionName|Qualifier, puts them all again on update, and deletes them', async () => {
    const request = { logicalId: 'Async', type, properties };
    expect(await provider.nameHolder!(request, context)).toEqual({ name: `${FN}|$LATEST` });
    const created = await provider.create(request, context);
    expect(created.physicalId).toBe(`${FN}|$LATEST`);
    expect(created.observed).toEqual({
      MaximumRetryAttempts: 1,
      MaximumEventAgeInSeconds: 600,
      DestinationConfig: properties.DestinationConfig,
    });
    expect(await provider.nameHolder!(request, context)).toEqual({
      name: `${FN}|$LATEST`,
      holder: `${FN}|$LATEST`,
    });
    expect(provider.canUpdateInPlace(type, ['MaximumRetryAttempts', 'DestinationConfig'])).toBe(true);
    expect(provider.canUpdateInPlace(type, ['Qualifier'])).toBe(false);

    // The template drops the age and the destination: both go back to Lambda's defaults.
    const next = { FunctionName: FN, Qualifier: '$LATEST', MaximumRetryAttempts: 0 };
    const live = { ...request, physicalId: created.physicalId };
    await provider.update({ ...live, properties: next, previousProperties: properties }, context);
    const after = await get();
    expect(after.MaximumRetryAttempts).toBe(0);
    expect(after.MaximumEventAgeInSeconds).toBeUndefined();
    expect(after.DestinationConfig).toEqual({});
    expect((await provider.read(live, context))!.properties).toEqual(next);

    await provider.delete(live, context);
    expect(await provider.read(live, context)).toBeUndefined();
    await provider.delete(live, context);
  });

  it('covers every property of the type', () => {
    expect(provider.uncoveredProperties(type, properties)).toEqual([]);
    expect(provider.uncoveredProperties(type, { ...properties, Other: 1 })).toEqual(['Other']);
  });

  it('a function that does not exist has no configuration to hold the name', async () => {
    const request = {
      logicalId: 'Async',
      type,
      properties: { FunctionName: 'no-such-fn', Qualifier: '$LATEST' },
    };
    expect(await provider.nameHolder!(request, context)).toEqual({ name: 'no-such-fn|$LATEST' });
    await expect(provider.create(request, context)).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

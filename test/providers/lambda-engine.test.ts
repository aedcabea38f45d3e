import {
  GetFunctionCommand,
  GetFunctionEventInvokeConfigCommand,
  GetPolicyCommand,
  PutFunctionEventInvokeConfigCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { registerLambda } from '../../src/providers/lambda/index.js';
import { REF_ATTRIBUTES } from '../../src/providers/lambda/ref-attributes.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import {
  ACCOUNT,
  functionProperties,
  lambdaClientFor,
  lambdaContext,
  scaledClock,
} from './lambda-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

useSandbox();
let engine: Engine;
let context: ProviderContext;

beforeAll(async () => {
  const clients = new AwsClients();
  const s3 = await clients.s3();
  await s3.send(new CreateBucketCommand({ Bucket: 'lambda-engine-state' }));
  await s3.send(new CreateBucketCommand({ Bucket: 'lambda-engine-assets' }));
  await s3.send(new PutObjectCommand({ Bucket: 'lambda-engine-assets', Key: 'layer.zip', Body: 'PK layer' }));
  const registry = registerLambda(new ProviderRegistry(new CloudControlProvider()), {
    clock: scaledClock(0),
  });
  engine = await createEngine({
    backend: await openStateBackend(clients, 'lambda-engine-state', 'cdkd'),
    clients,
    registry,
    io: eventsTo(() => undefined),
    command: 'deploy',
    regions: ['us-east-1'],
  });
  context = lambdaContext();
});

const ref = (logicalId: string) => ({ Ref: logicalId });
const getAtt = (logicalId: string, attribute: string) => ({ 'Fn::GetAtt': [logicalId, attribute] });

/** A function and one resource of every other Lambda type; an output per row of the Ref/GetAtt table. */
function template(options: { functionName?: string; principal?: string } = {}) {
  const resources = {
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: functionProperties(options.functionName ? { FunctionName: options.functionName } : {}),
    },
    Perm: {
      Type: 'AWS::Lambda::Permission',
      Properties: {
        FunctionName: getAtt('Fn', 'Arn'),
        Action: 'lambda:InvokeFunction',
        Principal: options.principal ?? 's3.amazonaws.com',
      },
    },
    Ver: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: ref('Fn') } },
    Live: {
      Type: 'AWS::Lambda::Alias',
      Properties: { FunctionName: ref('Fn'), Name: 'live', FunctionVersion: getAtt('Ver', 'Version') },
    },
    Map: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: { FunctionName: ref('Fn'), EventSourceArn: `arn:aws:sqs:us-east-1:${ACCOUNT}:jobs` },
    },
    Layer: {
      Type: 'AWS::Lambda::LayerVersion',
      Properties: { Content: { S3Bucket: 'lambda-engine-assets', S3Key: 'layer.zip' } },
    },
    Url: {
      Type: 'AWS::Lambda::Url',
      Properties: { TargetFunctionArn: getAtt('Fn', 'Arn'), AuthType: 'NONE' },
    },
    Async: {
      Type: 'AWS::Lambda::EventInvokeConfig',
      Properties: { FunctionName: ref('Fn'), Qualifier: '$LATEST', MaximumRetryAttempts: 0 },
    },
  };
  const outputs: Record<string, { Value: unknown }> = {};
  for (const [logicalId, { Type }] of Object.entries(resources)) {
    outputs[`${logicalId}Ref`] = { Value: ref(logicalId) };
    for (const attribute of Object.keys(REF_ATTRIBUTES[Type]!.attributes)) {
      if (!attribute.includes('.'))
        outputs[`${logicalId}${attribute}`] = { Value: getAtt(logicalId, attribute) };
    }
  }
  return { Resources: resources, Outputs: outputs };
}

const options = { concurrency: 4 };
const stackFor = (name: string) => ({
  stateName: name,
  stackName: name,
  region: 'us-east-1',
  accountId: ACCOUNT,
});

async function deploy(name: string, body: ReturnType<typeof template>) {
  const result = await engine.deploy({ ...stackFor(name), template: body }, options);
  return Object.fromEntries(Object.entries(result.outputs).map(([key, output]) => [key, output.value]));
}

describe('Lambda through the engine', () => {
  it('Ref and every Fn::GetAtt resolve as CloudFormation gives them', async () => {
    const out = await deploy('LambdaTable', template());
    const name = out.FnRef as string;
    const arn = `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${name}`;
    // AWS::Lambda::Function: Ref = name, Arn, SnapStartResponse
    expect(name).toMatch(/^LambdaTable-Fn-[A-Z0-9]{12}$/);
    expect(out.FnArn).toBe(arn);
    expect(out.FnSnapStartResponse).toEqual({ ApplyOn: 'None', OptimizationStatus: 'Off' });
    // AWS::Lambda::Permission: Ref = Id = the statement id
    expect(out.PermRef).toMatch(/^LambdaTable-Perm-[A-Z0-9]{12}$/);
    expect(out.PermId).toBe(out.PermRef);
    // AWS::Lambda::Version: Ref = FunctionArn = the version ARN; Version = its number
    expect(out.VerRef).toBe(`${arn}:1`);
    expect(out.VerFunctionArn).toBe(`${arn}:1`);
    expect(out.VerVersion).toBe('1');
    // AWS::Lambda::Alias: Ref = AliasArn
    expect(out.LiveRef).toBe(`${arn}:live`);
    expect(out.LiveAliasArn).toBe(`${arn}:live`);
    // AWS::Lambda::EventSourceMapping: Ref = Id = the UUID; EventSourceMappingArn
    expect(out.MapRef).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.MapId).toBe(out.MapRef);
    expect(out.MapEventSourceMappingArn).toBe(
      `arn:aws:lambda:us-east-1:${ACCOUNT}:event-source-mapping:${out.MapRef as string}`,
    );
    // AWS::Lambda::LayerVersion: Ref = LayerVersionArn
    expect(out.LayerRef).toMatch(
      new RegExp(`^arn:aws:lambda:us-east-1:${ACCOUNT}:layer:LambdaTable-Layer-[A-Z0-9]{12}:1$`),
    );
    expect(out.LayerLayerVersionArn).toBe(out.LayerRef);
    // AWS::Lambda::Url: Ref = FunctionArn; FunctionUrl
    expect(out.UrlRef).toBe(arn);
    expect(out.UrlFunctionArn).toBe(arn);
    expect(out.UrlFunctionUrl).toMatch(/^https:\/\/[a-z0-9]{32}\.lambda-url\.us-east-1\.on\.aws\/$/);
    // AWS::Lambda::EventInvokeConfig: Ref = FunctionName|Qualifier, no attributes
    expect(out.AsyncRef).toBe(`${name}|$LATEST`);
  });

  it('a create-only change replaces: new function (and dependents) made, the old one deleted', async () => {
    const first = await deploy('LambdaReplace', template({ functionName: 'replace-one' }));
    expect(first.FnRef).toBe('replace-one');
    const second = await deploy(
      'LambdaReplace',
      template({ functionName: 'replace-two', principal: 'sns.amazonaws.com' }),
    );
    expect(second.FnRef).toBe('replace-two');
    expect(second.PermRef).not.toBe(first.PermRef);
    const client = await lambdaClientFor(context);
    const gone = await client
      .send(new GetFunctionCommand({ FunctionName: 'replace-one' }))
      .catch((error: Error) => error);
    expect((gone as Error).name).toBe('ResourceNotFoundException');
    const policy = JSON.parse(
      (await client.send(new GetPolicyCommand({ FunctionName: 'replace-two' }))).Policy!,
    );
    expect(policy.Statement).toEqual([
      expect.objectContaining({ Sid: second.PermRef, Principal: { Service: 'sns.amazonaws.com' } }),
    ]);
    expect(second.LiveRef).toBe(`arn:aws:lambda:us-east-1:${ACCOUNT}:function:replace-two:live`);
  });
});

describe('an event invoke config the qualifier already holds', () => {
  it('is refused with NAMED_CREATE_COLLISION and left as it was, never overwritten', async () => {
    const fn = { Type: 'AWS::Lambda::Function', Properties: functionProperties({ FunctionName: 'held-fn' }) };
    await engine.deploy({ ...stackFor('LambdaHeld'), template: { Resources: { Fn: fn } } }, options);
    const client = await lambdaClientFor(context);
    await client.send(
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'held-fn', MaximumRetryAttempts: 2 }),
    );
    const withConfig = {
      Resources: {
        Fn: fn,
        Async: {
          Type: 'AWS::Lambda::EventInvokeConfig',
          Properties: { FunctionName: ref('Fn'), Qualifier: '$LATEST', MaximumRetryAttempts: 0 },
        },
      },
    };
    await expect(
      engine.deploy({ ...stackFor('LambdaHeld'), template: withConfig }, options),
    ).rejects.toMatchObject({
      code: 'NAMED_CREATE_COLLISION',
      // Quoted for the shell: the id holds a | and a $.
      message: expect.stringContaining("cdkd import LambdaHeld --resource 'Async=held-fn|$LATEST'"),
    });
    const live = await client.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'held-fn' }));
    expect(live.MaximumRetryAttempts).toBe(2);
  });
});

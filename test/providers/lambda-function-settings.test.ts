import { GetFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { LambdaFunctionProvider } from '../../src/providers/lambda/function.js';
import type { JsonObject } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { functionProperties, lambdaClientFor, lambdaContext } from './lambda-helpers.js';

// The settings modern CDK apps set (logging, tracing, /tmp, KMS key, SnapStart) on the SDK route.
useSandbox();
const context = lambdaContext('SettingsStack');
const type = 'AWS::Lambda::Function';
const KEY = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';

async function liveConfiguration(name: string) {
  const client = await lambdaClientFor(context);
  return client.send(new GetFunctionConfigurationCommand({ FunctionName: name }));
}

function without(properties: JsonObject, ...names: string[]): JsonObject {
  return Object.fromEntries(Object.entries(properties).filter(([name]) => !names.includes(name)));
}

describe('AWS::Lambda::Function provider settings', () => {
  it('creates with the settings, then an update that drops them sets Lambda defaults, read back', async () => {
    const provider = new LambdaFunctionProvider();
    const properties = functionProperties({
      FunctionName: 'settings-fn',
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 2048 },
      KmsKeyArn: KEY,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/app/settings-fn', ApplicationLogLevel: 'DEBUG' },
    });
    const created = await provider.create({ logicalId: 'Fn', type, properties }, context);
    expect(created.observed).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 2048 },
      KmsKeyArn: KEY,
      // The level the template left out reads back only where it differs from INFO: it does not.
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/app/settings-fn', ApplicationLogLevel: 'DEBUG' },
    });
    expect((created.observed!.LoggingConfig as JsonObject).SystemLogLevel).toBeUndefined();
    expect(await liveConfiguration('settings-fn')).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 2048 },
      KMSKeyArn: KEY,
      LoggingConfig: { LogFormat: 'JSON', SystemLogLevel: 'INFO' },
    });
    const request = { logicalId: 'Fn', type, physicalId: created.physicalId, properties };
    expect((await provider.read(request, context))!.properties).toMatchObject(created.observed!);

    const dropped = without(properties, 'TracingConfig', 'EphemeralStorage', 'KmsKeyArn', 'LoggingConfig');
    const updated = await provider.update(
      { ...request, properties: dropped, previousProperties: properties },
      context,
    );
    const live = await liveConfiguration('settings-fn');
    expect(live).toMatchObject({
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 512 },
      LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/settings-fn' },
    });
    expect(live.KMSKeyArn).toBeUndefined();
    expect(live.LoggingConfig!.ApplicationLogLevel).toBeUndefined();
    // All at their defaults and none in the template: nothing of them reads back.
    for (const property of ['TracingConfig', 'EphemeralStorage', 'KmsKeyArn', 'LoggingConfig']) {
      expect(updated.observed).not.toHaveProperty(property);
    }
  });

  it('an update of only the log group keeps the format, and reads back as the template wrote it', async () => {
    const provider = new LambdaFunctionProvider();
    const properties = functionProperties({ LoggingConfig: { LogGroup: '/app/one' } });
    const created = await provider.create({ logicalId: 'Logs', type, properties }, context);
    expect(created.observed!.LoggingConfig).toEqual({ LogGroup: '/app/one' });
    const next = functionProperties({ LoggingConfig: { LogGroup: '/app/two' } });
    const updated = await provider.update(
      {
        logicalId: 'Logs',
        type,
        physicalId: created.physicalId,
        properties: next,
        previousProperties: properties,
      },
      context,
    );
    expect(updated.observed!.LoggingConfig).toEqual({ LogGroup: '/app/two' });
    expect((await liveConfiguration(created.physicalId)).LoggingConfig).toEqual({
      LogFormat: 'Text',
      LogGroup: '/app/two',
    });
  });

  it('turns SnapStart on for a java function and off again when the template drops it', async () => {
    const provider = new LambdaFunctionProvider();
    const properties = functionProperties({
      Runtime: 'java21',
      Handler: 'example.Handler::handleRequest',
      SnapStart: { ApplyOn: 'PublishedVersions' },
    });
    const created = await provider.create({ logicalId: 'Snap', type, properties }, context);
    expect(created.attributes['SnapStartResponse.ApplyOn']).toBe('PublishedVersions');
    expect(created.observed!.SnapStart).toEqual({ ApplyOn: 'PublishedVersions' });
    const dropped = without(properties, 'SnapStart');
    const updated = await provider.update(
      {
        logicalId: 'Snap',
        type,
        physicalId: created.physicalId,
        properties: dropped,
        previousProperties: properties,
      },
      context,
    );
    expect(updated.attributes['SnapStartResponse.ApplyOn']).toBe('None');
    expect((await liveConfiguration(created.physicalId)).SnapStart!.ApplyOn).toBe('None');
  });

  it("surfaces Lambda's refusal of an out-of-range /tmp size", async () => {
    const provider = new LambdaFunctionProvider();
    const properties = functionProperties({ EphemeralStorage: { Size: 100 } });
    await expect(provider.create({ logicalId: 'Tmp', type, properties }, context)).rejects.toMatchObject({
      name: 'InvalidParameterValueException',
    });
  });
});

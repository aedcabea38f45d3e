import type { FunctionConfiguration } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { updateCalls } from '../../src/providers/lambda/function-properties.js';
import {
  createSettings,
  observedSettings,
  SETTING_PROPERTIES,
  settingsInput,
} from '../../src/providers/lambda/function-settings.js';
import type { JsonObject } from '../../src/providers/provider.js';

const KEY = 'arn:aws:kms:us-east-1:111111111111:key/k';
const MOUNT = { Arn: 'arn:aws:elasticfilesystem:us-east-1:1:access-point/fsap-1', LocalMountPath: '/mnt/d' };

describe('Lambda function settings: template to UpdateFunctionConfiguration', () => {
  const defaults = {
    TracingConfig: { Mode: 'PassThrough' },
    EphemeralStorage: { Size: 512 },
    KMSKeyArn: '',
    LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/fn' },
    FileSystemConfigs: [],
  };
  it.each<[string, JsonObject, JsonObject, object]>([
    ['none set: each at Lambda default, no SnapStart', {}, {}, defaults],
    [
      'tracing, /tmp (as a string), key and mount',
      {
        TracingConfig: { Mode: 'Active' },
        EphemeralStorage: { Size: '2048' },
        KmsKeyArn: KEY,
        FileSystemConfigs: [MOUNT],
      },
      {},
      {
        TracingConfig: { Mode: 'Active' },
        EphemeralStorage: { Size: 2048 },
        KMSKeyArn: KEY,
        FileSystemConfigs: [MOUNT],
      },
    ],
    [
      'a log group alone: Text format to that group',
      { LoggingConfig: { LogGroup: 'my-group' } },
      {},
      { LoggingConfig: { LogFormat: 'Text', LogGroup: 'my-group' } },
    ],
    [
      'JSON format: the unset levels at INFO, the group at its default',
      { LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'DEBUG' } },
      {},
      {
        LoggingConfig: {
          LogFormat: 'JSON',
          LogGroup: '/aws/lambda/fn',
          ApplicationLogLevel: 'DEBUG',
          SystemLogLevel: 'INFO',
        },
      },
    ],
    [
      'levels with Text are sent, for Lambda to refuse',
      { LoggingConfig: { SystemLogLevel: 'WARN' } },
      {},
      { LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/fn', SystemLogLevel: 'WARN' } },
    ],
    [
      'SnapStart set',
      { SnapStart: { ApplyOn: 'PublishedVersions' } },
      {},
      { SnapStart: { ApplyOn: 'PublishedVersions' } },
    ],
    [
      'SnapStart dropped from the previous properties: None',
      {},
      { SnapStart: { ApplyOn: 'PublishedVersions' } },
      { SnapStart: { ApplyOn: 'None' } },
    ],
  ])('%s', (_, properties, previous, expected) => {
    const input = settingsInput(properties, 'fn', previous);
    expect(input).toMatchObject(expected);
    if (!properties.SnapStart && !previous.SnapStart) expect(input.SnapStart).toBeUndefined();
  });

  it('CreateFunction sends only the settings the template sets', () => {
    expect(createSettings({}, 'fn')).toEqual({});
    expect(createSettings({ KmsKeyArn: '', FileSystemConfigs: [] }, 'fn')).toEqual({});
    expect(
      createSettings({ TracingConfig: { Mode: 'Active' }, LoggingConfig: { LogFormat: 'JSON' } }, 'fn'),
    ).toEqual({
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: {
        LogFormat: 'JSON',
        LogGroup: '/aws/lambda/fn',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
      },
    });
  });

  it('a change to any setting needs UpdateFunctionConfiguration', () => {
    for (const property of SETTING_PROPERTIES) expect(updateCalls([property]).configuration).toBe(true);
  });
});

describe('Lambda function settings: the live configuration in template terms', () => {
  const live = (extra: Partial<FunctionConfiguration> = {}): FunctionConfiguration => ({
    FunctionName: 'fn',
    TracingConfig: { Mode: 'PassThrough' },
    EphemeralStorage: { Size: 512 },
    LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/fn' },
    SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    ...extra,
  });
  it.each<[string, Partial<FunctionConfiguration>, JsonObject, JsonObject]>([
    ['all at defaults, none applied: nothing', {}, {}, {}],
    [
      'defaults the template names are reported',
      {},
      {
        TracingConfig: { Mode: 'PassThrough' },
        EphemeralStorage: { Size: 512 },
        SnapStart: { ApplyOn: 'None' },
      },
      {
        TracingConfig: { Mode: 'PassThrough' },
        EphemeralStorage: { Size: 512 },
        SnapStart: { ApplyOn: 'None' },
      },
    ],
    [
      'values off their default are reported unasked (a console change)',
      {
        TracingConfig: { Mode: 'Active' },
        EphemeralStorage: { Size: 1024 },
        KMSKeyArn: KEY,
        FileSystemConfigs: [MOUNT],
      },
      {},
      {
        TracingConfig: { Mode: 'Active' },
        EphemeralStorage: { Size: 1024 },
        KmsKeyArn: KEY,
        FileSystemConfigs: [MOUNT],
      },
    ],
    [
      'a log group alone reads back as applied (the Text format is the default)',
      { LoggingConfig: { LogFormat: 'Text', LogGroup: 'my-group' } },
      { LoggingConfig: { LogGroup: 'my-group' } },
      { LoggingConfig: { LogGroup: 'my-group' } },
    ],
    [
      'JSON format: default levels and group only when named',
      {
        LoggingConfig: {
          LogFormat: 'JSON',
          LogGroup: '/aws/lambda/fn',
          ApplicationLogLevel: 'INFO',
          SystemLogLevel: 'WARN',
        },
      },
      { LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'INFO' } },
      { LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' } },
    ],
    [
      'SnapStart on: ApplyOn only, not the optimization status',
      { SnapStart: { ApplyOn: 'PublishedVersions', OptimizationStatus: 'Off' } },
      {},
      { SnapStart: { ApplyOn: 'PublishedVersions' } },
    ],
  ])('%s', (_, extra, applied, expected) => {
    expect(observedSettings(live(extra), applied)).toEqual(expected);
  });
});

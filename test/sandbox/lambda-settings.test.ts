import {
  CreateFunctionCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  PublishVersionCommand,
  UpdateFunctionConfigurationCommand,
  type CreateFunctionRequest,
  type UpdateFunctionConfigurationRequest,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure, lambdaClient } from './helpers.js';

// Tracing, /tmp size, KMS key, logging, EFS mounts and SnapStart, as Lambda's API answers them.
const ACCOUNT = '123456789012';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/exec`;
const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const ACCESS_POINT = `arn:aws:elasticfilesystem:us-east-1:${ACCOUNT}:access-point/fsap-0123456789abcdef0`;

let sandbox: Sandbox;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  lambda.destroy();
  await sandbox.stop();
});

function create(name: string, extra: Partial<CreateFunctionRequest> = {}) {
  return lambda.send(
    new CreateFunctionCommand({
      FunctionName: name,
      Role: ROLE,
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: new Uint8Array(Buffer.from('PK fake zip')) },
      ...extra,
    }),
  );
}

const configuration = (name: string) =>
  lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }));

const update = (name: string, input: Omit<UpdateFunctionConfigurationRequest, 'FunctionName'>) =>
  lambda.send(new UpdateFunctionConfigurationCommand({ ...input, FunctionName: name }));

describe('sandbox Lambda function settings', () => {
  it('reports each setting at its default on a function created without them', async () => {
    await create('settings-default');
    const view = await configuration('settings-default');
    expect(view).toMatchObject({
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 512 },
      LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/settings-default' },
      SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    });
    expect(view.KMSKeyArn).toBeUndefined();
    expect(view.FileSystemConfigs).toBeUndefined();
    expect(view.LoggingConfig!.ApplicationLogLevel).toBeUndefined();
  });

  it('creates with every setting and reports them in CreateFunction and GetFunction', async () => {
    const created = await create('settings-all', {
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 2048 },
      KMSKeyArn: KEY,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/custom/group', ApplicationLogLevel: 'DEBUG' },
      VpcConfig: { SubnetIds: ['subnet-1'], SecurityGroupIds: ['sg-1'] },
      FileSystemConfigs: [{ Arn: ACCESS_POINT, LocalMountPath: '/mnt/data' }],
    });
    const expected = {
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 2048 },
      KMSKeyArn: KEY,
      // JSON logs without a system level filter at INFO.
      LoggingConfig: {
        LogFormat: 'JSON',
        LogGroup: '/custom/group',
        ApplicationLogLevel: 'DEBUG',
        SystemLogLevel: 'INFO',
      },
      FileSystemConfigs: [{ Arn: ACCESS_POINT, LocalMountPath: '/mnt/data' }],
    };
    expect(created).toMatchObject(expected);
    expect(
      (await lambda.send(new GetFunctionCommand({ FunctionName: 'settings-all' }))).Configuration,
    ).toMatchObject(expected);
  });

  it('updates settings: empty KMSKeyArn and FileSystemConfigs clear, Text logging drops the levels', async () => {
    await create('settings-update', {
      TracingConfig: { Mode: 'Active' },
      KMSKeyArn: KEY,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/custom/group', SystemLogLevel: 'WARN' },
      VpcConfig: { SubnetIds: ['subnet-1'], SecurityGroupIds: ['sg-1'] },
      FileSystemConfigs: [{ Arn: ACCESS_POINT, LocalMountPath: '/mnt/data' }],
    });
    await update('settings-update', {
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 10240 },
      KMSKeyArn: '',
      LoggingConfig: { LogFormat: 'Text' },
      FileSystemConfigs: [],
    });
    const view = await configuration('settings-update');
    expect(view).toMatchObject({
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 10240 },
      // Members not sent keep their value: the group stays.
      LoggingConfig: { LogFormat: 'Text', LogGroup: '/custom/group' },
    });
    expect(view.KMSKeyArn).toBeUndefined();
    expect(view.FileSystemConfigs).toBeUndefined();
    expect(view.LoggingConfig!.SystemLogLevel).toBeUndefined();
  });

  it('publishes SnapStart versions optimized, $LATEST not', async () => {
    await create('settings-snap', { Runtime: 'java21', SnapStart: { ApplyOn: 'PublishedVersions' } });
    expect((await configuration('settings-snap')).SnapStart).toEqual({
      ApplyOn: 'PublishedVersions',
      OptimizationStatus: 'Off',
    });
    const published = await lambda.send(new PublishVersionCommand({ FunctionName: 'settings-snap' }));
    expect(published.SnapStart).toEqual({ ApplyOn: 'PublishedVersions', OptimizationStatus: 'On' });
  });

  it.each<[string, Partial<CreateFunctionRequest>, string]>([
    ['/tmp below 512 MB', { EphemeralStorage: { Size: 256 } }, "at 'ephemeralStorage.size'"],
    ['/tmp above 10240 MB', { EphemeralStorage: { Size: 10241 } }, 'between 512 and 10240'],
    ['an unknown tracing mode', { TracingConfig: { Mode: 'Sometimes' as never } }, '[Active, PassThrough]'],
    [
      'log levels with the Text format',
      { LoggingConfig: { LogFormat: 'Text', ApplicationLogLevel: 'DEBUG' } },
      'LogLevel is not supported when LogFormat is set to "Text"',
    ],
    ['log levels with no format', { LoggingConfig: { SystemLogLevel: 'WARN' } }, 'LogLevel is not supported'],
    ['an unknown log format', { LoggingConfig: { LogFormat: 'XML' as never } }, '[JSON, Text]'],
    [
      'an unknown log level',
      { LoggingConfig: { LogFormat: 'JSON', SystemLogLevel: 'ERROR' as never } },
      '[DEBUG, INFO, WARN]',
    ],
    [
      'a log group name with spaces',
      { LoggingConfig: { LogGroup: 'my group' } },
      "at 'loggingConfig.logGroup'",
    ],
    ['a KMS key that is no ARN', { KMSKeyArn: 'alias/mine' }, "at 'kMSKeyArn'"],
    [
      'SnapStart on a runtime without it',
      { SnapStart: { ApplyOn: 'PublishedVersions' } },
      'nodejs20.x runtime does not support SnapStart',
    ],
    [
      'an EFS mount without a VPC',
      { FileSystemConfigs: [{ Arn: ACCESS_POINT, LocalMountPath: '/mnt/data' }] },
      'must be configured with a VPC',
    ],
    [
      'an EFS mount outside /mnt',
      {
        FileSystemConfigs: [{ Arn: ACCESS_POINT, LocalMountPath: '/data' }],
        VpcConfig: { SubnetIds: ['subnet-1'], SecurityGroupIds: [] },
      },
      "at 'fileSystemConfigs.member.localMountPath'",
    ],
  ])('refuses %s with InvalidParameterValueException, creating nothing', async (_, extra, message) => {
    const name = `settings-bad-${Math.random().toString(36).slice(2, 8)}`;
    const refused = await failure(create(name, extra));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(refused.error.message).toContain(message);
    expect((await failure(configuration(name))).name).toBe('ResourceNotFoundException');
  });

  it('refuses an update that sends log levels to a Text-format function, changing nothing', async () => {
    await create('settings-text', { TracingConfig: { Mode: 'Active' } });
    const refused = await failure(
      update('settings-text', {
        TracingConfig: { Mode: 'PassThrough' },
        LoggingConfig: { ApplicationLogLevel: 'INFO' },
      }),
    );
    expect(refused.name).toBe('InvalidParameterValueException');
    expect((await configuration('settings-text')).TracingConfig).toEqual({ Mode: 'Active' });
  });
});

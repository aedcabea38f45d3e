import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, lambdaClient, settle } from './helpers.js';

const ACCOUNT = '123456789012';
let sandbox: Sandbox;
let cc: CloudControlClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  cc = cloudControlClient(sandbox);
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  cc.destroy();
  lambda.destroy();
  await sandbox.stop();
});

describe('AWS::Lambda::Function through Cloud Control', () => {
  it('acts on the Lambda store: the API serves what Cloud Control made, unmodelled properties read back', async () => {
    const TypeName = 'AWS::Lambda::Function';
    const desired = {
      FunctionName: 'cc-fn',
      Role: `arn:aws:iam::${ACCOUNT}:role/exec`,
      Runtime: 'python3.12',
      Handler: 'index.handler',
      Code: { ZipFile: 'def handler(e, c): return 1' },
      RuntimeManagementConfig: { UpdateRuntimeOn: 'FunctionUpdate' },
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    const created = await cc.send(
      new CreateResourceCommand({ TypeName, DesiredState: JSON.stringify(desired) }),
    );
    const { event } = await settle(cc, created.ProgressEvent!);
    expect(event).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'cc-fn' });

    const viaApi = await lambda.send(new GetFunctionCommand({ FunctionName: 'cc-fn' }));
    expect(viaApi.Configuration).toMatchObject({ State: 'Active', Runtime: 'python3.12' });
    expect(viaApi.Tags).toEqual({ team: 'a' });
    const model = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName, Identifier: 'cc-fn' }))).ResourceDescription!
        .Properties!,
    );
    expect(model).toMatchObject({
      Arn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:cc-fn`,
      RuntimeManagementConfig: { UpdateRuntimeOn: 'FunctionUpdate' },
      Timeout: 3,
    });

    const patch = [{ op: 'replace', path: '/Timeout', value: 20 }];
    const updated = await cc.send(
      new UpdateResourceCommand({ TypeName, Identifier: 'cc-fn', PatchDocument: JSON.stringify(patch) }),
    );
    expect((await settle(cc, updated.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    expect(
      (await lambda.send(new GetFunctionCommand({ FunctionName: 'cc-fn' }))).Configuration!.Timeout,
    ).toBe(20);

    const deleted = await cc.send(new DeleteResourceCommand({ TypeName, Identifier: 'cc-fn' }));
    expect((await settle(cc, deleted.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    expect(await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'cc-fn' })))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });

  it('reads and writes the modelled settings in CloudFormation shape; an update that drops one resets it', async () => {
    const TypeName = 'AWS::Lambda::Function';
    const key = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
    const desired = {
      FunctionName: 'cc-settings',
      Role: `arn:aws:iam::${ACCOUNT}:role/exec`,
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: 'exports.handler = async () => 1;' },
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 1024 },
      KmsKeyArn: key,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/custom/cc-settings', ApplicationLogLevel: 'WARN' },
    };
    const created = await cc.send(
      new CreateResourceCommand({ TypeName, DesiredState: JSON.stringify(desired) }),
    );
    expect((await settle(cc, created.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    const viaApi = await lambda.send(new GetFunctionCommand({ FunctionName: 'cc-settings' }));
    expect(viaApi.Configuration).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 1024 },
      KMSKeyArn: key,
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/custom/cc-settings', ApplicationLogLevel: 'WARN' },
    });
    const read = async () =>
      JSON.parse(
        (await cc.send(new GetResourceCommand({ TypeName, Identifier: 'cc-settings' }))).ResourceDescription!
          .Properties!,
      );
    expect(await read()).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 1024 },
      KmsKeyArn: key,
      LoggingConfig: {
        LogFormat: 'JSON',
        LogGroup: '/custom/cc-settings',
        ApplicationLogLevel: 'WARN',
        SystemLogLevel: 'INFO',
      },
      SnapStart: { ApplyOn: 'None' },
      SnapStartResponse: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    });

    const patch = ['/TracingConfig', '/EphemeralStorage', '/KmsKeyArn', '/LoggingConfig'].map((path) => ({
      op: 'remove',
      path,
    }));
    const updated = await cc.send(
      new UpdateResourceCommand({
        TypeName,
        Identifier: 'cc-settings',
        PatchDocument: JSON.stringify(patch),
      }),
    );
    expect((await settle(cc, updated.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    const after = await read();
    expect(after).toMatchObject({
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 512 },
      LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/cc-settings' },
    });
    expect(after.KmsKeyArn).toBeUndefined();
    expect(after.LoggingConfig.ApplicationLogLevel).toBeUndefined();

    const bad = [{ op: 'replace', path: '/EphemeralStorage', value: { Size: 100 } }];
    const refused = await cc.send(
      new UpdateResourceCommand({ TypeName, Identifier: 'cc-settings', PatchDocument: JSON.stringify(bad) }),
    );
    expect((await settle(cc, refused.ProgressEvent!)).event).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'InvalidRequest',
    });
  });

  it('fails the request with the Lambda error mapped to a handler code', async () => {
    const desired = { FunctionName: 'cc-bad', Role: 'not-a-role', Code: { ZipFile: 'x' } };
    const created = await cc.send(
      new CreateResourceCommand({ TypeName: 'AWS::Lambda::Function', DesiredState: JSON.stringify(desired) }),
    );
    const { event } = await settle(cc, created.ProgressEvent!);
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
  });
});

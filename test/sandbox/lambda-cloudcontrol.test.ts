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
import { cloudControlClient, failure, settle } from './helpers.js';

const ACCOUNT = '123456789012';
let sandbox: Sandbox;
let cc: CloudControlClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  cc = cloudControlClient(sandbox);
  lambda = new LambdaClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
    maxAttempts: 1,
  });
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
      TracingConfig: { Mode: 'Active' },
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
      TracingConfig: { Mode: 'Active' },
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

  it('fails the request with the Lambda error mapped to a handler code', async () => {
    const desired = { FunctionName: 'cc-bad', Role: 'not-a-role', Code: { ZipFile: 'x' } };
    const created = await cc.send(
      new CreateResourceCommand({ TypeName: 'AWS::Lambda::Function', DesiredState: JSON.stringify(desired) }),
    );
    const { event } = await settle(cc, created.ProgressEvent!);
    expect(event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
  });
});

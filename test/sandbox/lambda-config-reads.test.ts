import {
  CreateFunctionCommand,
  GetFunctionCodeSigningConfigCommand,
  GetFunctionRecursionConfigCommand,
  GetRuntimeManagementConfigCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure, lambdaClient } from './helpers.js';

let sandbox: Sandbox;
let lambda: LambdaClient;
const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:reads';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  lambda = lambdaClient(sandbox);
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: 'reads',
      Role: 'arn:aws:iam::000000000000:role/exec',
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Code: { ZipFile: new Uint8Array(Buffer.from('PK fake zip')) },
    }),
  );
});
afterAll(async () => {
  lambda.destroy();
  await sandbox.stop();
});

describe('Lambda settings other deploy tools read', () => {
  it('GetRuntimeManagementConfig: runtime updates are automatic', async () => {
    expect(await lambda.send(new GetRuntimeManagementConfigCommand({ FunctionName: 'reads' }))).toMatchObject(
      {
        UpdateRuntimeOn: 'Auto',
        FunctionArn: ARN,
      },
    );
    expect(
      (
        await lambda.send(
          new GetRuntimeManagementConfigCommand({ FunctionName: 'reads', Qualifier: '$LATEST' }),
        )
      ).FunctionArn,
    ).toBe(`${ARN}:$LATEST`);
  });

  it('GetFunctionCodeSigningConfig: no code signing', async () => {
    expect(
      await lambda.send(new GetFunctionCodeSigningConfigCommand({ FunctionName: 'reads' })),
    ).toMatchObject({
      CodeSigningConfigArn: '',
      FunctionName: 'reads',
    });
  });

  it('GetFunctionRecursionConfig: recursive loops are stopped', async () => {
    expect(
      (await lambda.send(new GetFunctionRecursionConfigCommand({ FunctionName: ARN }))).RecursiveLoop,
    ).toBe('Terminate');
  });

  it('a function that does not exist is ResourceNotFoundException', async () => {
    const missing = await failure(
      lambda.send(new GetFunctionRecursionConfigCommand({ FunctionName: 'nope' })),
    );
    expect(missing).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });
});

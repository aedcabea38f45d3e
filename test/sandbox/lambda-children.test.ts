import {
  AddPermissionCommand,
  CreateAliasCommand,
  DeleteFunctionCommand,
  GetAliasCommand,
  GetFunctionEventInvokeConfigCommand,
  GetPolicyCommand,
  ListVersionsByFunctionCommand,
  PublishVersionCommand,
  PutFunctionEventInvokeConfigCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure, createStubFunction, lambdaClient } from './helpers.js';

/**
 * Spec 002 "Children deleted with the target": as in AWS, a function's permissions, versions,
 * aliases and event invoke configs go with it, and a function re-created under the same name starts without them.
 */
const ACCOUNT = '123456789012';
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

const create = (FunctionName: string) => createStubFunction(lambda, FunctionName, ACCOUNT);

describe('a deleted Lambda function', () => {
  it('takes its permissions, versions, aliases and event invoke config with it; the same name re-created has none', async () => {
    await create('parent-fn');
    await lambda.send(
      new AddPermissionCommand({
        FunctionName: 'parent-fn',
        StatementId: 'sns',
        Action: 'lambda:InvokeFunction',
        Principal: 'sns.amazonaws.com',
      }),
    );
    const { Version } = await lambda.send(new PublishVersionCommand({ FunctionName: 'parent-fn' }));
    await lambda.send(
      new CreateAliasCommand({ FunctionName: 'parent-fn', Name: 'live', FunctionVersion: Version }),
    );
    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'parent-fn', MaximumRetryAttempts: 0 }),
    );

    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'parent-fn' }));
    await create('parent-fn');

    expect(await failure(lambda.send(new GetPolicyCommand({ FunctionName: 'parent-fn' })))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
    expect(
      await failure(lambda.send(new GetAliasCommand({ FunctionName: 'parent-fn', Name: 'live' }))),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    expect(
      await failure(lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'parent-fn' }))),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    const versions = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: 'parent-fn' }));
    expect(versions.Versions?.map((v) => v.Version)).toEqual(['$LATEST']);
    expect((await lambda.send(new PublishVersionCommand({ FunctionName: 'parent-fn' }))).Version).toBe('1');
  });
});

import {
  CreateAliasCommand,
  DeleteAliasCommand,
  DeleteFunctionCommand,
  DeleteFunctionEventInvokeConfigCommand,
  GetFunctionEventInvokeConfigCommand,
  ListFunctionEventInvokeConfigsCommand,
  PublishVersionCommand,
  PutFunctionEventInvokeConfigCommand,
  UpdateFunctionEventInvokeConfigCommand,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure, createStubFunction, lambdaClient } from './helpers.js';

/** Lambda's asynchronous-invocation settings: one configuration per function qualifier. */
const ACCOUNT = '123456789012';
const ARN = `arn:aws:lambda:us-east-1:${ACCOUNT}:function`;
const DLQ = `arn:aws:sqs:us-east-1:${ACCOUNT}:dlq`;
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

describe('function event invoke configs', () => {
  it('Put replaces the whole configuration, Update changes only what it is given', async () => {
    await create('async-fn');
    const put = await lambda.send(
      new PutFunctionEventInvokeConfigCommand({
        FunctionName: 'async-fn',
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 1,
        MaximumEventAgeInSeconds: 300,
        DestinationConfig: { OnFailure: { Destination: DLQ } },
      }),
    );
    expect(put).toMatchObject({
      FunctionArn: `${ARN}:async-fn:$LATEST`,
      MaximumRetryAttempts: 1,
      MaximumEventAgeInSeconds: 300,
      DestinationConfig: { OnFailure: { Destination: DLQ } },
    });
    expect(put.LastModified).toBeInstanceOf(Date);

    const updated = await lambda.send(
      new UpdateFunctionEventInvokeConfigCommand({ FunctionName: 'async-fn', MaximumRetryAttempts: 2 }),
    );
    expect(updated).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 });
    expect(updated.DestinationConfig?.OnFailure?.Destination).toBe(DLQ);

    await lambda.send(
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'async-fn', MaximumRetryAttempts: 0 }),
    );
    const read = await lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'async-fn' }));
    expect(read.MaximumRetryAttempts).toBe(0);
    expect(read.MaximumEventAgeInSeconds).toBeUndefined();
    expect(read.DestinationConfig).toEqual({});
  });

  it('lists a configuration per qualifier, a page at a time', async () => {
    await create('listed-fn');
    const { Version } = await lambda.send(new PublishVersionCommand({ FunctionName: 'listed-fn' }));
    for (const Qualifier of ['$LATEST', Version!]) {
      await lambda.send(
        new PutFunctionEventInvokeConfigCommand({
          FunctionName: 'listed-fn',
          Qualifier,
          MaximumRetryAttempts: 1,
        }),
      );
    }
    const first = await lambda.send(
      new ListFunctionEventInvokeConfigsCommand({ FunctionName: 'listed-fn', MaxItems: 1 }),
    );
    expect(first.FunctionEventInvokeConfigs?.map((c) => c.FunctionArn)).toEqual([`${ARN}:listed-fn:$LATEST`]);
    const second = await lambda.send(
      new ListFunctionEventInvokeConfigsCommand({ FunctionName: 'listed-fn', Marker: first.NextMarker! }),
    );
    expect(second.FunctionEventInvokeConfigs?.map((c) => c.FunctionArn)).toEqual([
      `${ARN}:listed-fn:${Version!}`,
    ]);
    expect(second.NextMarker).toBeUndefined();
  });

  it('answers ResourceNotFoundException for a missing function, qualifier or configuration', async () => {
    await create('bare-fn');
    expect(
      await failure(lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'bare-fn' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
      error: { message: `The function ${ARN}:bare-fn:$LATEST doesn't have an EventInvokeConfig` },
    });
    for (const call of [
      new UpdateFunctionEventInvokeConfigCommand({ FunctionName: 'bare-fn', MaximumRetryAttempts: 1 }),
      new DeleteFunctionEventInvokeConfigCommand({ FunctionName: 'bare-fn' }),
      new PutFunctionEventInvokeConfigCommand({ FunctionName: 'no-such-fn', MaximumRetryAttempts: 1 }),
    ]) {
      expect(await failure(lambda.send(call as never))).toMatchObject({ name: 'ResourceNotFoundException' });
    }
    expect(
      await failure(
        lambda.send(
          new PutFunctionEventInvokeConfigCommand({
            FunctionName: 'bare-fn',
            Qualifier: 'nope',
            MaximumRetryAttempts: 1,
          }),
        ),
      ),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      error: { message: `Function not found: ${ARN}:bare-fn:nope` },
    });
  });

  it('refuses settings outside their ranges and a destination that is not an ARN', async () => {
    await create('range-fn');
    for (const input of [{ MaximumRetryAttempts: 3 }, { MaximumEventAgeInSeconds: 59 }]) {
      expect(
        await failure(
          lambda.send(new PutFunctionEventInvokeConfigCommand({ FunctionName: 'range-fn', ...input })),
        ),
      ).toMatchObject({ name: 'ValidationException', status: 400 });
    }
    expect(
      await failure(
        lambda.send(
          new PutFunctionEventInvokeConfigCommand({
            FunctionName: 'range-fn',
            DestinationConfig: { OnSuccess: { Destination: 'my-queue' } },
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
  });

  it("goes with its alias's or version's delete, and with the function's", async () => {
    await create('gone-fn');
    const { Version } = await lambda.send(new PublishVersionCommand({ FunctionName: 'gone-fn' }));
    await lambda.send(
      new CreateAliasCommand({ FunctionName: 'gone-fn', Name: 'live', FunctionVersion: Version }),
    );
    for (const Qualifier of ['$LATEST', Version!, 'live']) {
      await lambda.send(
        new PutFunctionEventInvokeConfigCommand({
          FunctionName: 'gone-fn',
          Qualifier,
          MaximumRetryAttempts: 0,
        }),
      );
    }
    await lambda.send(new DeleteAliasCommand({ FunctionName: 'gone-fn', Name: 'live' }));
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'gone-fn', Qualifier: Version }));
    const left = await lambda.send(new ListFunctionEventInvokeConfigsCommand({ FunctionName: 'gone-fn' }));
    expect(left.FunctionEventInvokeConfigs?.map((c) => c.FunctionArn)).toEqual([`${ARN}:gone-fn:$LATEST`]);

    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'gone-fn' }));
    await create('gone-fn');
    const after = await lambda.send(new ListFunctionEventInvokeConfigsCommand({ FunctionName: 'gone-fn' }));
    expect(after.FunctionEventInvokeConfigs).toEqual([]);
  });
});

import { CreateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  StartSyncExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, settle } from './helpers.js';
import { ACCOUNT, ROLE, clientConfig, createFunction, lambdaClient } from './lambda-runtime-helpers.js';

// Step Functions executions of state machines deployed through Cloud Control: a Lambda
// task, a Wait on the sandbox clock, the execution's output, history and stop.
let sandbox: Sandbox;
let sfn: SFNClient;
let lambda: LambdaClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  // StartSyncExecution's endpoint has the host prefix `sync-`, which an IP address cannot take.
  sfn = new SFNClient({ ...clientConfig(sandbox), disableHostPrefix: true });
  lambda = lambdaClient(sandbox);
});
afterAll(async () => {
  sfn.destroy();
  lambda.destroy();
  await sandbox.stop();
});

async function machine(name: string, definition: unknown, type = 'STANDARD'): Promise<string> {
  const cc = cloudControlClient(sandbox);
  const { ProgressEvent } = await cc.send(
    new CreateResourceCommand({
      TypeName: 'AWS::StepFunctions::StateMachine',
      DesiredState: JSON.stringify({
        StateMachineName: name,
        StateMachineType: type,
        RoleArn: ROLE,
        DefinitionString: JSON.stringify(definition),
      }),
    }),
  );
  const { event } = await settle(cc, ProgressEvent!);
  cc.destroy();
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
  return event.Identifier!;
}

async function until<T>(
  read: () => Promise<T>,
  test: (value: T) => boolean,
  deadlineMs = 20_000,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (test(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Step Functions executions', () => {
  it('run a Lambda task and a Wait on the sandbox clock to their output, with the history', async () => {
    await createFunction(lambda, {
      name: 'pricer',
      files: { 'index.js': 'exports.handler = async (e) => ({ total: e.qty * 7 });' },
    });
    const arn = await machine('orders', {
      StartAt: 'Price',
      States: {
        Price: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: 'pricer', 'Payload.$': '$' },
          ResultSelector: { 'total.$': '$.Payload.total' },
          ResultPath: '$.price',
          Next: 'Cool off',
        },
        'Cool off': { Type: 'Wait', Seconds: 86_400, Next: 'Done' },
        Done: { Type: 'Succeed' },
      },
    });
    expect(arn).toBe(`arn:aws:states:us-east-1:${ACCOUNT}:stateMachine:orders`);
    await admin(sandbox, 'PUT', 'clock', { set: '2030-01-01T00:00:00Z' });
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: arn, name: 'order-1', input: JSON.stringify({ qty: 3 }) }),
    );
    expect(executionArn).toBe(`arn:aws:states:us-east-1:${ACCOUNT}:execution:orders:order-1`);
    const history = () => sfn.send(new GetExecutionHistoryCommand({ executionArn }));
    await until(history, (h) => (h.events ?? []).some((e) => e.type === 'WaitStateEntered'));
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');

    await admin(sandbox, 'PUT', 'clock', { advance: '1d' });
    const described = await until(
      () => sfn.send(new DescribeExecutionCommand({ executionArn })),
      (d) => d.status !== 'RUNNING',
    );
    expect(described.status).toBe('SUCCEEDED');
    expect(JSON.parse(described.output!)).toEqual({ qty: 3, price: { total: 21 } });
    expect(described.stopDate!.toISOString()).toBe('2030-01-02T00:00:00.000Z');
    const types = ((await history()).events ?? []).map((e) => e.type);
    expect(types).toEqual([
      'ExecutionStarted',
      'TaskStateEntered',
      'TaskScheduled',
      'TaskSucceeded',
      'TaskStateExited',
      'WaitStateEntered',
      'WaitStateExited',
      'SucceedStateEntered',
      'SucceedStateExited',
      'ExecutionSucceeded',
    ]);
    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn: arn }));
    expect(listed.executions!.map((e) => [e.name, e.status])).toEqual([['order-1', 'SUCCEEDED']]);
    await admin(sandbox, 'PUT', 'clock', { mode: 'wall' });
  });

  it('answers StartSyncExecution of an express machine with its result, and a failure with its error', async () => {
    const arn = await machine(
      'checks',
      {
        StartAt: 'Check',
        States: {
          Check: {
            Type: 'Choice',
            Choices: [{ Variable: '$.amount', NumericGreaterThan: 100, Next: 'Reject' }],
            Default: 'Accept',
          },
          Accept: {
            Type: 'Pass',
            Parameters: { 'ok.$': "States.Format('accepted {}', $.amount)" },
            End: true,
          },
          Reject: { Type: 'Fail', Error: 'Check.TooLarge', Cause: 'over the limit' },
        },
      },
      'EXPRESS',
    );
    const accepted = await sfn.send(
      new StartSyncExecutionCommand({ stateMachineArn: arn, input: '{"amount":5}' }),
    );
    expect(accepted.status).toBe('SUCCEEDED');
    expect(JSON.parse(accepted.output!)).toEqual({ ok: 'accepted 5' });
    const rejected = await sfn.send(
      new StartSyncExecutionCommand({ stateMachineArn: arn, input: '{"amount":500}' }),
    );
    expect(rejected).toMatchObject({ status: 'FAILED', error: 'Check.TooLarge', cause: 'over the limit' });
  });

  it('stops a running execution, and refuses a machine that does not exist', async () => {
    const arn = await machine('waiter', {
      StartAt: 'W',
      States: { W: { Type: 'Wait', Seconds: 3600, End: true } },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn }));
    await sfn.send(new StopExecutionCommand({ executionArn, error: 'Operator', cause: 'not needed' }));
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn }))).toMatchObject({
      status: 'ABORTED',
      error: 'Operator',
    });
    const missing = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn: `${arn}-gone` })));
    expect(missing.name).toBe('StateMachineDoesNotExist');
  });
});

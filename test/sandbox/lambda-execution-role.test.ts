import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import {
  CreateFunctionCommand,
  InvokeCommand,
  LambdaClient,
  waitUntilFunctionActiveV2,
} from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { parsePayload, zip } from './lambda-runtime-helpers.js';

// A function runs as its execution role: its SDK calls act as that role's session in the role's
// account, so `--enforce-iam` checks an app's Lambda roles as AWS would.
const ACCOUNT = '333333333333';
const sandbox = useSandbox({ enforceIam: true });

const config = () => ({
  endpoint: sandbox.current.url,
  region: 'us-east-1',
  credentials: { accessKeyId: ACCOUNT, secretAccessKey: 'sandbox-secret' },
  maxAttempts: 1,
});

const HANDLER = `const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const { SQSClient, ListQueuesCommand } = require('@aws-sdk/client-sqs');
const { SNSClient, CreateTopicCommand } = require('@aws-sdk/client-sns');
exports.handler = async () => {
  const identity = await new STSClient({}).send(new GetCallerIdentityCommand({}));
  const queues = await new SQSClient({}).send(new ListQueuesCommand({})).then(() => 'allowed', (e) => e.name);
  const topic = await new SNSClient({}).send(new CreateTopicCommand({ Name: 'denied' })).then(() => 'allowed', (e) => e.name);
  return { arn: identity.Arn, account: identity.Account, queues, topic };
};`;

async function functionAs(name: string, role: string): Promise<LambdaClient> {
  const lambda = new LambdaClient(config());
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: name,
      Runtime: 'nodejs20.x',
      Role: role,
      Handler: 'index.handler',
      Code: { ZipFile: zip({ 'index.js': HANDLER }) },
      Timeout: 30,
    }),
  );
  await waitUntilFunctionActiveV2({ client: lambda, maxWaitTime: 30, minDelay: 1 }, { FunctionName: name });
  return lambda;
}

describe('a function under --enforce-iam', () => {
  it("acts as its execution role's session: allowed what the role allows, refused the rest", async () => {
    const iam = new IAMClient(config());
    await iam.send(
      new CreateRoleCommand({
        RoleName: 'worker-role',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        }),
      }),
    );
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'worker-role',
        PolicyName: 'queues',
        PolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 'sqs:ListQueues', Resource: '*' }],
        }),
      }),
    );
    const lambda = await functionAs('worker', `arn:aws:iam::${ACCOUNT}:role/worker-role`);
    const answer = await lambda.send(new InvokeCommand({ FunctionName: 'worker' }));
    expect(parsePayload(answer.Payload)).toEqual({
      arn: `arn:aws:sts::${ACCOUNT}:assumed-role/worker-role/worker`,
      account: ACCOUNT,
      queues: 'allowed',
      topic: 'AuthorizationErrorException',
    });
  });

  it('a function whose role the sandbox does not hold keeps running unchecked, as before roles were read', async () => {
    const lambda = await functionAs('orphan', `arn:aws:iam::${ACCOUNT}:role/not-made`);
    const answer = parsePayload((await lambda.send(new InvokeCommand({ FunctionName: 'orphan' }))).Payload);
    expect(answer).toMatchObject({ queues: 'allowed', topic: 'allowed' });
  });
});

import { CloudControlClient, CreateResourceCommand, GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestAccount } from '../../src/sandbox/request.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { settle } from './helpers.js';

describe('the account a sandbox request acts in', () => {
  it.each([
    ['a 12-digit access key id selects that account', '111111111111', '111111111111'],
    ['any other key acts in the sandbox account', 'AKIASANDBOXTEST', '000000000000'],
    ['11 digits are not an account id', '11111111111', '000000000000'],
    ['13 digits are not an account id', '1111111111111', '000000000000'],
    ['no key (an unsigned request) acts in the sandbox account', '', '000000000000'],
  ])('%s', (_row, accessKeyId, account) => {
    expect(requestAccount(accessKeyId, '000000000000')).toBe(account);
  });
});

const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

describe('a 12-digit access key id, across the services that put the account in ARNs', () => {
  let sandbox: Sandbox;
  const clientOptions = (accessKeyId: string) => ({
    endpoint: sandbox.url,
    region: 'eu-west-1',
    credentials: { accessKeyId, secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(async () => sandbox.stop());

  it.each([
    ['222222222222', '222222222222'],
    ['AKIASANDBOXTEST', '000000000000'],
  ])('with key %s: STS, SQS, IAM and Cloud Control all answer for account %s', async (key, account) => {
    const identity = await new STSClient(clientOptions(key)).send(new GetCallerIdentityCommand({}));
    expect(identity).toMatchObject({ Account: account, Arn: `arn:aws:iam::${account}:root` });

    const sqs = new SQSClient(clientOptions(key));
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `q-${key}` }));
    expect(QueueUrl).toContain(`/${account}/q-${key}`);
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    expect(attributes.Attributes?.QueueArn).toBe(`arn:aws:sqs:eu-west-1:${account}:q-${key}`);

    const role = await new IAMClient(clientOptions(key)).send(
      new CreateRoleCommand({ RoleName: `r-${key}`, AssumeRolePolicyDocument: JSON.stringify(TRUST) }),
    );
    expect(role.Role?.Arn).toBe(`arn:aws:iam::${account}:role/r-${key}`);

    const cc = new CloudControlClient(clientOptions(key));
    for (const [type, desired] of [
      ['AWS::SSM::Parameter', { Name: `p-${key}`, Type: 'String', Value: 'v' }],
      ['AWS::IAM::Role', { RoleName: `cc-${key}`, AssumeRolePolicyDocument: TRUST }],
      ['AWS::Kinesis::Stream', { Name: `s-${key}`, ShardCount: 1 }],
    ] as const) {
      const accepted = await cc.send(
        new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
      );
      const { event } = await settle(cc, accepted.ProgressEvent!);
      expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
      const read = await cc.send(new GetResourceCommand({ TypeName: type, Identifier: event.Identifier }));
      expect(JSON.parse(read.ResourceDescription!.Properties!).Arn).toContain(`:${account}:`);
    }
  });
});

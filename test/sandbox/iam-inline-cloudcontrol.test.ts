import {
  CreateResourceCommand,
  GetResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  GetRolePolicyCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';

const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const DOCUMENT = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
};
let sandbox: Sandbox;
let cc: CloudControlClient;
let iam: IAMClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  cc = cloudControlClient(sandbox);
  iam = new IAMClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  cc.destroy();
  iam.destroy();
  await sandbox.stop();
});

const createInline = async (RoleName: string) =>
  (
    await settle(
      cc,
      (
        await cc.send(
          new CreateResourceCommand({
            TypeName: 'AWS::IAM::RolePolicy',
            DesiredState: JSON.stringify({ RoleName, PolicyName: 'inline', PolicyDocument: DOCUMENT }),
          }),
        )
      ).ProgressEvent!,
    )
  ).event;

describe("AWS::IAM::RolePolicy through Cloud Control is the role's own inline policy", () => {
  it('is what IAM reads, goes with its role, and a role re-created under the name starts without it', async () => {
    await iam.send(new CreateRoleCommand({ RoleName: 'holder', AssumeRolePolicyDocument: TRUST }));
    const created = await createInline('holder');
    expect(created).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'inline|holder' });
    const read = await iam.send(new GetRolePolicyCommand({ RoleName: 'holder', PolicyName: 'inline' }));
    expect(JSON.parse(decodeURIComponent(read.PolicyDocument!))).toEqual(DOCUMENT);
    expect((await createInline('holder')).ErrorCode).toBe('AlreadyExists');

    await iam.send(new DeleteRolePolicyCommand({ RoleName: 'holder', PolicyName: 'inline' }));
    await iam.send(new DeleteRoleCommand({ RoleName: 'holder' }));
    await iam.send(new CreateRoleCommand({ RoleName: 'holder', AssumeRolePolicyDocument: TRUST }));
    expect(
      await failure(
        cc.send(new GetResourceCommand({ TypeName: 'AWS::IAM::RolePolicy', Identifier: 'inline|holder' })),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    expect((await createInline('holder')).OperationStatus).toBe('SUCCESS');
  });

  it('on a role that does not exist fails NotFound', async () => {
    expect((await createInline('nobody')).ErrorCode).toBe('NotFound');
  });
});

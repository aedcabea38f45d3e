import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { GetRoleCommand, IAMClient, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, settle } from './helpers.js';

const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};
const type = 'AWS::IAM::Role';
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

describe('AWS::IAM::Role through Cloud Control acts on the IAM store', () => {
  it('creates, reads, updates and deletes a role the IAM API sees', async () => {
    const desired = {
      RoleName: 'cc-role',
      AssumeRolePolicyDocument: TRUST,
      Policies: [
        {
          PolicyName: 'p',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
          },
        },
      ],
    };
    const created = await cc.send(
      new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
    );
    const { event } = await settle(cc, created.ProgressEvent!);
    expect(event.OperationStatus).toBe('SUCCESS');
    expect(event.Identifier).toBe('cc-role');
    const role = (await iam.send(new GetRoleCommand({ RoleName: 'cc-role' }))).Role!;
    expect(role.Arn).toBe('arn:aws:iam::123456789012:role/cc-role');
    const inventory = (await admin(sandbox, 'GET', 'inventory')).json;
    expect(inventory.iam['AWS::IAM::Role'].map((entry: { id: string }) => entry.id)).toContain('cc-role');
    const model = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName: type, Identifier: 'cc-role' }))).ResourceDescription!
        .Properties!,
    );
    expect(model).toMatchObject({ ...desired, Arn: role.Arn, RoleId: role.RoleId, MaxSessionDuration: 3600 });

    const patch = [
      { op: 'add', path: '/Description', value: 'via cc' },
      { op: 'remove', path: '/Policies' },
    ];
    const updated = await cc.send(
      new UpdateResourceCommand({
        TypeName: type,
        Identifier: 'cc-role',
        PatchDocument: JSON.stringify(patch),
      }),
    );
    expect((await settle(cc, updated.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    expect((await iam.send(new GetRoleCommand({ RoleName: 'cc-role' }))).Role!.Description).toBe('via cc');
    expect((await iam.send(new ListRolePoliciesCommand({ RoleName: 'cc-role' }))).PolicyNames).toEqual([]);

    const deleted = await cc.send(new DeleteResourceCommand({ TypeName: type, Identifier: 'cc-role' }));
    expect((await settle(cc, deleted.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    expect(await failure(iam.send(new GetRoleCommand({ RoleName: 'cc-role' })))).toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it('reports a malformed trust policy as InvalidRequest and a taken name as AlreadyExists', async () => {
    const bad = await cc.send(
      new CreateResourceCommand({
        TypeName: type,
        DesiredState: JSON.stringify({
          RoleName: 'bad',
          AssumeRolePolicyDocument: { Statement: [{ Effect: 'Allow' }] },
        }),
      }),
    );
    expect((await settle(cc, bad.ProgressEvent!)).event).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'InvalidRequest',
    });
    const desired = JSON.stringify({ RoleName: 'taken', AssumeRolePolicyDocument: TRUST });
    await settle(
      cc,
      (await cc.send(new CreateResourceCommand({ TypeName: type, DesiredState: desired }))).ProgressEvent!,
    );
    const again = await cc.send(new CreateResourceCommand({ TypeName: type, DesiredState: desired }));
    expect((await settle(cc, again.ProgressEvent!)).event).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'AlreadyExists',
    });
  });
});

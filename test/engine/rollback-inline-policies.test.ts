import { GetRolePolicyCommand, IAMClient, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/state/event-log.js';
import { iamRole, NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 000, "IAM inline policy names moved between resources", with the real IAM
 * provider on the sandbox: a rollback that removes a name another record still
 * holds on the role puts that record's document back at the end.
 */
const sandbox = useSandboxEngine('inline-policies');
let counter = 0;

const document = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});
const role = iamRole();
const policy = (name: string, action: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::IAM::Policy',
  ...extra,
  Properties: { PolicyName: name, PolicyDocument: document(action), Roles: [{ Ref: 'Role' }] },
});

async function inlinePolicies(roleName: string): Promise<Record<string, unknown>> {
  const iam = await sandbox.clients.client(IAMClient);
  const names = (await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }))).PolicyNames ?? [];
  const found: Record<string, unknown> = {};
  for (const PolicyName of names) {
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName }));
    found[PolicyName] = JSON.parse(decodeURIComponent(got.PolicyDocument!));
  }
  return found;
}

async function roleName(stackName: string): Promise<string> {
  const state = await sandbox.backend.store.read({ stackName, region: REGION });
  return state!.document.resources.Role!.physicalId;
}

describe('IAM inline policy names moved between resources', () => {
  it('a name a new policy took and a renamed policy gave up goes back to the renamed policy’s document', async () => {
    counter += 1;
    const stack = `InlineMoved${counter}`;
    await sandbox.deploy(stack, { Role: role, A: policy('shared', 's3:GetObject') });
    const name = await roleName(stack);
    expect(await inlinePolicies(name)).toEqual({ shared: document('s3:GetObject') });

    // B takes "shared" (over A's document), then A moves to "renamed" and deletes "shared":
    // reverting A puts "shared" back, deleting B removes it again, the put-back restores A's.
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(stack, {
        Role: role,
        B: policy('shared', 'sqs:SendMessage'),
        A: policy('renamed', 's3:GetObject', { DependsOn: 'B' }),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ shared: document('s3:GetObject') });
    const putBack = sandbox.events.filter(
      (event) => event.kind === 'rollback' && event.message.includes('put back the inline policy'),
    );
    expect(putBack).toEqual([
      expect.objectContaining({
        logicalId: 'A',
        message: 'Rollback: put back the inline policy A records on its role',
      }),
    ]);
    const recorded = await readEvents(sandbox.backend.objects, sandbox.backend.store.prefix, {
      stackName: stack,
      region: REGION,
    });
    expect(recorded).toContainEqual(
      expect.objectContaining({
        status: 'ROLLBACK_RESOURCE_SUCCEEDED',
        logicalId: 'A',
        resourceType: 'AWS::IAM::Policy',
      }),
    );
  });

  it('a plain rename is reverted without any put-back', async () => {
    counter += 1;
    const stack = `InlineMoved${counter}`;
    await sandbox.deploy(stack, { Role: role, A: policy('first', 's3:GetObject') });
    const name = await roleName(stack);

    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(stack, {
        Role: role,
        A: policy('second', 's3:GetObject'),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ first: document('s3:GetObject') });
    expect(
      sandbox.events.some((event) => event.kind === 'rollback' && event.message.includes('put back')),
    ).toBe(false);
  });
});

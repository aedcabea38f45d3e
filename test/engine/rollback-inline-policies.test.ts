import { describe, expect, it } from 'vitest';
import { allowing, inlinePoliciesOf, rolePolicy } from './inline-policy-helpers.js';
import { readEvents } from '../../src/state/event-log.js';
import { iamRole, NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 000, "IAM inline policy names moved between resources", with the real IAM
 * provider on the sandbox: a rollback that removes a name another record still
 * holds on the role puts that record's document back at the end.
 */
const sandbox = useSandboxEngine('inline-policies');
let counter = 0;

const role = iamRole();

const inlinePolicies = (roleName: string) => inlinePoliciesOf(sandbox.clients, roleName);

async function roleName(stackName: string): Promise<string> {
  const state = await sandbox.backend.store.read({ stackName, region: REGION });
  return state!.document.resources.Role!.physicalId;
}

describe('IAM inline policy names moved between resources', () => {
  it('a name a new policy took and a renamed policy gave up goes back to the renamed policy’s document', async () => {
    counter += 1;
    const stack = `InlineMoved${counter}`;
    await sandbox.deploy(stack, { Role: role, A: rolePolicy('shared', 's3:GetObject') });
    const name = await roleName(stack);
    expect(await inlinePolicies(name)).toEqual({ shared: allowing('s3:GetObject') });

    // B takes "shared" (over A's document), then A moves to "renamed" and deletes "shared":
    // reverting A puts "shared" back, deleting B removes it again, the put-back restores A's.
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(stack, {
        Role: role,
        B: rolePolicy('shared', 'sqs:SendMessage'),
        A: rolePolicy('renamed', 's3:GetObject', { DependsOn: 'B' }),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ shared: allowing('s3:GetObject') });
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
    await sandbox.deploy(stack, { Role: role, A: rolePolicy('first', 's3:GetObject') });
    const name = await roleName(stack);

    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    await expect(
      sandbox.deploy(stack, {
        Role: role,
        A: rolePolicy('second', 's3:GetObject'),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ first: allowing('s3:GetObject') });
    expect(
      sandbox.events.some((event) => event.kind === 'rollback' && event.message.includes('put back')),
    ).toBe(false);
  });
});

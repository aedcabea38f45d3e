import {
  AddRoleToInstanceProfileCommand,
  AddUserToGroupCommand,
  CreateInstanceProfileCommand,
  CreateUserCommand,
  GetInstanceProfileCommand,
  ListGroupsForUserCommand,
} from '@aws-sdk/client-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUP } from '../../src/providers/iam/group.js';
import { PrincipalProvider } from '../../src/providers/iam/principal-provider.js';
import { ROLE } from '../../src/providers/iam/role.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { iamClientFor, iamContext, TRUST } from './iam-helpers.js';

/**
 * Spec 002: what is attached to a re-created IAM principal survives it, but IAM refuses to
 * delete a principal that still has it, so the principal's delete detaches it first (the
 * attached resource's own update attaches it to the re-created principal again).
 */
useSandbox();
let context: ProviderContext;

beforeAll(() => {
  context = iamContext('DetachFirst');
});

describe('deleting an IAM principal that something is attached to', () => {
  it('a role an instance profile holds leaves the profile first, which survives it', async () => {
    const roles = new PrincipalProvider(ROLE);
    await roles.create(
      {
        logicalId: 'Role',
        type: 'AWS::IAM::Role',
        properties: { RoleName: 'held-role', AssumeRolePolicyDocument: TRUST },
      },
      context,
    );
    const iam = await iamClientFor(context);
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'holder' }));
    await iam.send(
      new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'holder', RoleName: 'held-role' }),
    );

    await roles.delete(
      { logicalId: 'Role', type: 'AWS::IAM::Role', physicalId: 'held-role', properties: {} },
      context,
    );

    expect(
      await roles.read(
        { logicalId: 'Role', type: 'AWS::IAM::Role', physicalId: 'held-role', properties: {} },
        context,
      ),
    ).toBeUndefined();
    const profile = await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'holder' }));
    expect(profile.InstanceProfile?.Roles).toEqual([]);
  });

  it('a group with members removes them first; the users survive it', async () => {
    const groups = new PrincipalProvider(GROUP);
    await groups.create(
      { logicalId: 'Group', type: 'AWS::IAM::Group', properties: { GroupName: 'crew' } },
      context,
    );
    const iam = await iamClientFor(context);
    await iam.send(new CreateUserCommand({ UserName: 'member' }));
    await iam.send(new AddUserToGroupCommand({ GroupName: 'crew', UserName: 'member' }));

    await groups.delete(
      { logicalId: 'Group', type: 'AWS::IAM::Group', physicalId: 'crew', properties: {} },
      context,
    );

    expect(
      await groups.read(
        { logicalId: 'Group', type: 'AWS::IAM::Group', physicalId: 'crew', properties: {} },
        context,
      ),
    ).toBeUndefined();
    expect((await iam.send(new ListGroupsForUserCommand({ UserName: 'member' }))).Groups).toEqual([]);
  });
});

import {
  CreatePolicyCommand,
  CreateRoleCommand,
  GetGroupCommand,
  GetInstanceProfileCommand,
  GetUserCommand,
  ListGroupsForUserCommand,
} from '@aws-sdk/client-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupProvider } from '../../src/providers/iam/group.js';
import { InstanceProfileProvider } from '../../src/providers/iam/instance-profile.js';
import { UserProvider } from '../../src/providers/iam/user.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { doc, iamClientFor, iamContext, TRUST } from './iam-helpers.js';

useSandbox();
let context: ProviderContext;
let boundary: string;

beforeAll(async () => {
  context = iamContext();
  const iam = await iamClientFor(context);
  for (const RoleName of ['ec2-a', 'ec2-b']) {
    await iam.send(new CreateRoleCommand({ RoleName, AssumeRolePolicyDocument: JSON.stringify(TRUST) }));
  }
  boundary = (
    await iam.send(new CreatePolicyCommand({ PolicyName: 'bound', PolicyDocument: JSON.stringify(doc('*')) }))
  ).Policy!.Arn!;
});

describe('AWS::IAM::InstanceProfile', () => {
  const provider = new InstanceProfileProvider();
  const type = 'AWS::IAM::InstanceProfile';

  it('creates with its role, swaps the role in place, deletes (twice)', async () => {
    const created = await provider.create(
      { logicalId: 'Ip', type, properties: { Roles: ['ec2-a'] } },
      context,
    );
    expect(created.physicalId).toMatch(/^IamStack-Ip-[A-Z0-9]{12}$/);
    expect(created.attributes).toEqual({
      Arn: `arn:aws:iam::000000000000:instance-profile/${created.physicalId}`,
    });
    expect(created.creationIdentity?.InstanceProfileId).toMatch(/^AIPA/);
    const request = { logicalId: 'Ip', type, physicalId: created.physicalId };
    await provider.update(
      { ...request, previousProperties: { Roles: ['ec2-a'] }, properties: { Roles: ['ec2-b'] } },
      context,
    );
    const live = await provider.read({ ...request, properties: {} }, context);
    expect(live?.properties).toEqual({
      InstanceProfileName: created.physicalId,
      Path: '/',
      Roles: ['ec2-b'],
    });
    await provider.delete({ ...request, properties: {} }, context);
    await provider.delete({ ...request, properties: {} }, context);
    const iam = await iamClientFor(context);
    await expect(
      iam.send(new GetInstanceProfileCommand({ InstanceProfileName: created.physicalId })),
    ).rejects.toMatchObject({ name: 'NoSuchEntityException' });
    expect(provider.canUpdateInPlace(type, ['Roles'])).toBe(true);
    expect(provider.canUpdateInPlace(type, ['InstanceProfileName'])).toBe(false);
    expect(provider.canUpdateInPlace(type, ['Path'])).toBe(false);
  });
});

describe('AWS::IAM::Group and AWS::IAM::User', () => {
  const groups = new GroupProvider();
  const users = new UserProvider();

  it('creates a group and a user in it with policies, tags and boundary; updates; deletes both', async () => {
    const groupProps = { GroupName: 'devs', Policies: [{ PolicyName: 'g', PolicyDocument: doc('s3:*') }] };
    const group = await groups.create(
      { logicalId: 'G', type: 'AWS::IAM::Group', properties: groupProps },
      context,
    );
    expect(group).toMatchObject({
      physicalId: 'devs',
      attributes: { Arn: 'arn:aws:iam::000000000000:group/devs' },
    });
    const userProps = {
      Groups: ['devs'],
      ManagedPolicyArns: ['arn:aws:iam::aws:policy/ReadOnlyAccess'],
      PermissionsBoundary: boundary,
      Tags: [{ Key: 'k', Value: 'v' }],
      Path: '/people/',
    };
    const user = await users.create(
      { logicalId: 'U', type: 'AWS::IAM::User', properties: userProps },
      context,
    );
    expect(user.physicalId).toMatch(/^IamStack-U-[A-Z0-9]{12}$/);
    expect(user.attributes.Arn).toBe(`arn:aws:iam::000000000000:user/people/${user.physicalId}`);
    expect(
      (
        await users.read(
          { logicalId: 'U', type: 'AWS::IAM::User', physicalId: user.physicalId, properties: {} },
          context,
        )
      )?.properties,
    ).toEqual({ UserName: user.physicalId, ...userProps });

    const userAfter = { Path: '/staff/', Policies: [{ PolicyName: 'own', PolicyDocument: doc('sqs:*') }] };
    const updated = await users.update(
      {
        logicalId: 'U',
        type: 'AWS::IAM::User',
        physicalId: user.physicalId,
        previousProperties: userProps,
        properties: userAfter,
      },
      context,
    );
    expect(updated.attributes.Arn).toBe(`arn:aws:iam::000000000000:user/staff/${user.physicalId}`);
    const iam = await iamClientFor(context);
    expect((await iam.send(new ListGroupsForUserCommand({ UserName: user.physicalId }))).Groups).toEqual([]);
    expect(
      (await iam.send(new GetUserCommand({ UserName: user.physicalId }))).User?.PermissionsBoundary,
    ).toBeUndefined();

    const groupAfter = { GroupName: 'devs', Path: '/teams/' };
    const groupUpdated = await groups.update(
      {
        logicalId: 'G',
        type: 'AWS::IAM::Group',
        physicalId: 'devs',
        previousProperties: groupProps,
        properties: groupAfter,
      },
      context,
    );
    expect(groupUpdated.attributes.Arn).toBe('arn:aws:iam::000000000000:group/teams/devs');
    expect(
      (
        await groups.read(
          { logicalId: 'G', type: 'AWS::IAM::Group', physicalId: 'devs', properties: {} },
          context,
        )
      )?.properties,
    ).toEqual(groupAfter);

    await users.delete(
      { logicalId: 'U', type: 'AWS::IAM::User', physicalId: user.physicalId, properties: {} },
      context,
    );
    await groups.delete(
      { logicalId: 'G', type: 'AWS::IAM::Group', physicalId: 'devs', properties: {} },
      context,
    );
    await groups.delete(
      { logicalId: 'G', type: 'AWS::IAM::Group', physicalId: 'devs', properties: {} },
      context,
    );
    await expect(iam.send(new GetGroupCommand({ GroupName: 'devs' }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
    await expect(iam.send(new GetUserCommand({ UserName: user.physicalId }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it('replaces on the name only; leaves LoginProfile to Cloud Control', () => {
    expect(users.canUpdateInPlace('AWS::IAM::User', ['UserName'])).toBe(false);
    expect(users.canUpdateInPlace('AWS::IAM::User', ['Path', 'Groups', 'Tags', 'Policies'])).toBe(true);
    expect(groups.canUpdateInPlace('AWS::IAM::Group', ['GroupName'])).toBe(false);
    expect(groups.canUpdateInPlace('AWS::IAM::Group', ['Path', 'ManagedPolicyArns'])).toBe(true);
    expect(
      users.uncoveredProperties('AWS::IAM::User', { LoginProfile: { Password: 'x' }, Path: '/' }),
    ).toEqual(['LoginProfile']);
  });
});

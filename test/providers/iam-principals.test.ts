import {
  CreatePolicyCommand,
  CreateRoleCommand,
  GetGroupCommand,
  GetInstanceProfileCommand,
  GetUserCommand,
  ListGroupsForUserCommand,
} from '@aws-sdk/client-iam';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GROUP } from '../../src/providers/iam/group.js';
import { PrincipalProvider } from '../../src/providers/iam/principal-provider.js';
import { InstanceProfileProvider } from '../../src/providers/iam/instance-profile.js';
import { USER } from '../../src/providers/iam/user.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { doc, iamClientFor, iamContext, TRUST } from './iam-helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';

const sandbox = useSandbox();
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
afterEach(() => clearFaults(sandbox.current));

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

  it('reports the profile made when its role and its removal both fail; the retry takes it back', async () => {
    const request = {
      logicalId: 'Stuck',
      type,
      properties: { Roles: ['ec2-a'] },
      idempotencyToken: 'ip-stuck',
    };
    await failNext(sandbox.current, 'iam', 'AddRoleToInstanceProfile', { errorCode: 'ValidationError' });
    await failNext(sandbox.current, 'iam', 'DeleteInstanceProfile', { errorCode: 'ValidationError' });
    const made = await madeError(provider.create(request, context), 'ValidationError');
    expect(made.made.physicalId).toMatch(/^IamStack-Stuck-[A-Z0-9]{12}$/);
    const live = await provider.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    const retried = await provider.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(
      (await provider.read({ ...request, physicalId: retried.physicalId }, context))!.properties,
    ).toMatchObject({
      Roles: ['ec2-a'],
    });
  });
});

describe('AWS::IAM::Group and AWS::IAM::User', () => {
  const groups = new PrincipalProvider(GROUP);
  const users = new PrincipalProvider(USER);

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

  it('reports a group made when a policy and its removal both fail', async () => {
    const properties = {
      GroupName: 'stuck-group',
      Policies: [{ PolicyName: 'g', PolicyDocument: doc('s3:*') }],
    };
    const request = { logicalId: 'StuckGroup', type: 'AWS::IAM::Group', properties };
    await failNext(sandbox.current, 'iam', 'PutGroupPolicy', { errorCode: 'MalformedPolicyDocument' });
    await failNext(sandbox.current, 'iam', 'DeleteGroup', { errorCode: 'ValidationError' });
    const made = await madeError(groups.create(request, context), 'MalformedPolicyDocument');
    expect(made.made.physicalId).toBe('stuck-group');
    const live = await groups.read({ ...request, physicalId: 'stuck-group' }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
  });

  it('reports a user made when joining a group and its removal both fail', async () => {
    const properties = { UserName: 'stuck-user', Groups: ['no-such-group'] };
    const request = { logicalId: 'StuckUser', type: 'AWS::IAM::User', properties };
    await failNext(sandbox.current, 'iam', 'DeleteUser', { errorCode: 'ValidationError' });
    // AddUserToGroup fails on its own: the group does not exist.
    const made = await madeError(users.create(request, context), 'NoSuchEntity');
    expect(made.made.physicalId).toBe('stuck-user');
    const live = await users.read({ ...request, physicalId: 'stuck-user' }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
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

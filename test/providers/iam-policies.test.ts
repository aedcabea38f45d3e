import {
  CreateRoleCommand,
  CreateUserCommand,
  GetPolicyCommand,
  GetRolePolicyCommand,
  ListPolicyVersionsCommand,
  ListRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { awsErrorCode } from '../../src/aws/error-class.js';
import { ManagedPolicyProvider, versionToDrop } from '../../src/providers/iam/managed-policy.js';
import { PolicyProvider } from '../../src/providers/iam/policy.js';
import { ResourceMadeError, type ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { doc, iamClientFor, iamContext, TRUST } from './iam-helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';

const sandbox = useSandbox();
let context: ProviderContext;

beforeAll(async () => {
  context = iamContext();
  const iam = await iamClientFor(context);
  for (const RoleName of ['r1', 'r2']) {
    await iam.send(new CreateRoleCommand({ RoleName, AssumeRolePolicyDocument: JSON.stringify(TRUST) }));
  }
  await iam.send(new CreateUserCommand({ UserName: 'u1' }));
});
afterEach(() => clearFaults(sandbox.current));

async function inlineNames(RoleName: string): Promise<string[]> {
  const iam = await iamClientFor(context);
  return (await iam.send(new ListRolePoliciesCommand({ RoleName }))).PolicyNames ?? [];
}

describe('AWS::IAM::Policy', () => {
  const provider = new PolicyProvider();
  const type = 'AWS::IAM::Policy';

  it('puts the policy on each principal; Ref and Id are the generated id', async () => {
    const properties = {
      PolicyName: 'p1',
      PolicyDocument: doc('s3:GetObject'),
      Roles: ['r1'],
      Users: ['u1'],
    };
    const created = await provider.create({ logicalId: 'Pol', type, properties }, context);
    expect(created.physicalId).toMatch(/^IamStack-Pol-[A-Z0-9]{12}$/);
    expect(created.ref).toBeUndefined();
    expect(created.attributes).toEqual({ Id: created.physicalId });
    expect(await inlineNames('r1')).toContain('p1');
    const live = await provider.read(
      { logicalId: 'Pol', type, physicalId: created.physicalId, properties },
      context,
    );
    expect(live?.properties).toEqual(properties);
  });

  it('moves between principals and renames in place; delete removes it everywhere', async () => {
    const before = { PolicyName: 'p2', PolicyDocument: doc('s3:GetObject'), Roles: ['r1'] };
    const created = await provider.create({ logicalId: 'Mv', type, properties: before }, context);
    const moved = { PolicyName: 'p2', PolicyDocument: doc('s3:GetObject'), Roles: ['r2'] };
    const request = { logicalId: 'Mv', type, physicalId: created.physicalId };
    await provider.update({ ...request, previousProperties: before, properties: moved }, context);
    expect(await inlineNames('r1')).not.toContain('p2');
    expect(await inlineNames('r2')).toContain('p2');

    const renamed = { PolicyName: 'p2b', PolicyDocument: doc('s3:PutObject'), Roles: ['r2'] };
    const updated = await provider.update(
      { ...request, previousProperties: moved, properties: renamed },
      context,
    );
    expect(updated.physicalId).toBe(created.physicalId);
    expect(await inlineNames('r2')).toEqual(expect.arrayContaining(['p2b']));
    expect(await inlineNames('r2')).not.toContain('p2');
    const iam = await iamClientFor(context);
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: 'r2', PolicyName: 'p2b' }));
    expect(JSON.parse(decodeURIComponent(got.PolicyDocument!))).toEqual(doc('s3:PutObject'));
    expect(
      provider.canUpdateInPlace(type, ['PolicyName', 'PolicyDocument', 'Roles', 'Users', 'Groups']),
    ).toBe(true);

    await provider.delete({ ...request, properties: renamed }, context);
    await provider.delete({ ...request, properties: renamed }, context);
    expect(await inlineNames('r2')).not.toContain('p2b');
    expect(await provider.read({ ...request, properties: renamed }, context)).toBeUndefined();
  });

  it('a put that fails part-way removes the policy from the principals it already reached', async () => {
    const properties = { PolicyName: 'half', PolicyDocument: doc('s3:*'), Roles: ['r1', 'r2'] };
    await failNext(sandbox.current, 'iam', 'PutRolePolicy', { errorCode: 'ValidationError', nth: 2 });
    const error = await provider
      .create({ logicalId: 'Half', type, properties }, context)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceMadeError);
    expect(awsErrorCode(error)).toBe('ValidationError');
    expect(await inlineNames('r1')).not.toContain('half');
    expect(await inlineNames('r2')).not.toContain('half');
  });

  it('names the principal still holding the policy when that removal fails too', async () => {
    const properties = { PolicyName: 'stuck', PolicyDocument: doc('s3:*'), Roles: ['r1', 'r2'] };
    await failNext(sandbox.current, 'iam', 'PutRolePolicy', { errorCode: 'ValidationError', nth: 2 });
    await failNext(sandbox.current, 'iam', 'DeleteRolePolicy', { errorCode: 'ValidationError' });
    const error = await provider
      .create({ logicalId: 'Stuck', type, properties }, context)
      .catch((e: unknown) => e);
    expect(awsErrorCode(error)).toBe('ValidationError');
    expect((error as Error).message).toContain('injected PutRolePolicy failure');
    expect((error as Error).message).toMatch(/role r1 still holds inline policy stuck/);
    expect(await inlineNames('r1')).toContain('stuck');
  });

  it('refuses a policy with no principal before calling IAM', async () => {
    const error = await provider
      .create(
        { logicalId: 'Nowhere', type, properties: { PolicyName: 'x', PolicyDocument: doc('s3:*') } },
        context,
      )
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/at least one of \[Groups, Roles, Users\]/);
  });
});

describe('AWS::IAM::ManagedPolicy', () => {
  const provider = new ManagedPolicyProvider();
  const type = 'AWS::IAM::ManagedPolicy';

  it('creates and attaches; Ref is the ARN; every attribute comes from GetPolicy', async () => {
    const properties = {
      ManagedPolicyName: 'mp1',
      Path: '/t/',
      PolicyDocument: doc('s3:GetObject'),
      Roles: ['r1'],
    };
    const created = await provider.create({ logicalId: 'Mp', type, properties }, context);
    const arn = 'arn:aws:iam::000000000000:policy/t/mp1';
    expect(created.physicalId).toBe(arn);
    expect(created.ref).toBeUndefined();
    expect(created.attributes).toMatchObject({
      PolicyArn: arn,
      AttachmentCount: 1,
      DefaultVersionId: 'v1',
      IsAttachable: true,
      PermissionsBoundaryUsageCount: 0,
    });
    expect(created.attributes.PolicyId).toMatch(/^ANPA/);
    expect(created.attributes.CreateDate).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(created.creationIdentity).toMatchObject({ Arn: arn, PolicyId: created.attributes.PolicyId });
    const live = await provider.read({ logicalId: 'Mp', type, physicalId: arn, properties }, context);
    expect(live?.properties).toEqual({ ...properties });
  });

  it('a document change is a new default version, keeping at most five; attachments follow', async () => {
    const arn = 'arn:aws:iam::000000000000:policy/t/mp1';
    const iam = await iamClientFor(context);
    let previous: Record<string, unknown> = {
      ManagedPolicyName: 'mp1',
      Path: '/t/',
      PolicyDocument: doc('s3:GetObject'),
      Roles: ['r1'],
    };
    for (let i = 2; i <= 7; i++) {
      const next = { ...previous, PolicyDocument: doc(`s3:Action${i}`), Roles: ['r2'], Users: ['u1'] };
      const updated = await provider.update(
        { logicalId: 'Mp', type, physicalId: arn, previousProperties: previous, properties: next },
        context,
      );
      expect(updated.attributes.DefaultVersionId).toBe(`v${i}`);
      previous = next;
    }
    const versions = (await iam.send(new ListPolicyVersionsCommand({ PolicyArn: arn }))).Versions!;
    expect(versions.map((v) => v.VersionId).sort()).toEqual(['v3', 'v4', 'v5', 'v6', 'v7']);
    const live = await provider.read({ logicalId: 'Mp', type, physicalId: arn, properties: {} }, context);
    expect(live?.properties).toMatchObject({
      PolicyDocument: doc('s3:Action7'),
      Roles: ['r2'],
      Users: ['u1'],
    });
  });

  it('delete detaches, drops old versions and deletes; a second delete succeeds', async () => {
    const arn = 'arn:aws:iam::000000000000:policy/t/mp1';
    const request = { logicalId: 'Mp', type, physicalId: arn, properties: {} };
    await provider.delete(request, context);
    await provider.delete(request, context);
    const iam = await iamClientFor(context);
    await expect(iam.send(new GetPolicyCommand({ PolicyArn: arn }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
    expect(await provider.read(request, context)).toBeUndefined();
  });

  it('a retried create with the same token adopts the policy its first attempt made', async () => {
    const request = {
      logicalId: 'Again',
      type,
      properties: { PolicyDocument: doc('s3:*') },
      idempotencyToken: 't',
    };
    const first = await provider.create(request, context);
    const again = await provider.create(request, context);
    expect(again.physicalId).toBe(first.physicalId);
    expect(again.attributes.PolicyId).toBe(first.attributes.PolicyId);
  });

  it('reports the policy made when an attachment and its removal both fail; the retry takes it back', async () => {
    const properties = { ManagedPolicyName: 'stuck-mp', PolicyDocument: doc('s3:*'), Roles: ['r1'] };
    const request = { logicalId: 'Stuck', type, properties, idempotencyToken: 'mp-stuck' };
    await failNext(sandbox.current, 'iam', 'AttachRolePolicy', { errorCode: 'ValidationError' });
    await failNext(sandbox.current, 'iam', 'DeletePolicy', { errorCode: 'ValidationError' });
    const made = await madeError(provider.create(request, context), 'ValidationError');
    expect(made.made.physicalId).toBe('arn:aws:iam::000000000000:policy/stuck-mp');
    const live = await provider.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    const retried = await provider.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(retried.creationIdentity).toEqual(made.made.creationIdentity);
  });

  it('generates a name when none is given, and replaces on name, path or description', async () => {
    const created = await provider.create(
      { logicalId: 'Gen', type, properties: { PolicyDocument: doc('s3:*') } },
      context,
    );
    expect(created.physicalId).toMatch(/^arn:aws:iam::000000000000:policy\/IamStack-Gen-[A-Z0-9]{12}$/);
    for (const property of ['ManagedPolicyName', 'Path', 'Description']) {
      expect(provider.canUpdateInPlace(type, [property])).toBe(false);
    }
    expect(provider.canUpdateInPlace(type, ['PolicyDocument', 'Roles', 'Users', 'Groups'])).toBe(true);
  });
});

describe('versionToDrop', () => {
  const at = (id: string, minute: number, isDefault = false) => ({
    VersionId: id,
    IsDefaultVersion: isDefault,
    CreateDate: new Date(Date.UTC(2026, 0, 1, 0, minute)),
  });
  it.each([
    ['under the limit: nothing', [at('v1', 1, true), at('v2', 2)], undefined],
    [
      'at the limit: the oldest non-default',
      [at('v1', 1, true), at('v2', 2), at('v3', 3), at('v4', 4), at('v5', 5)],
      'v2',
    ],
    [
      'the default may be the oldest',
      [at('v5', 1), at('v1', 0, true), at('v3', 3), at('v4', 4), at('v6', 6)],
      'v5',
    ],
    [
      'same time: the lower number',
      [at('v10', 1), at('v9', 1), at('v3', 3, true), at('v4', 4), at('v6', 6)],
      'v9',
    ],
  ])('%s', (_name, versions, expected) => {
    expect(versionToDrop(versions)).toBe(expected);
  });
});

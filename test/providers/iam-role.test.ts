import {
  GetRoleCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../src/providers/iam/role.js';
import { PrincipalProvider } from '../../src/providers/iam/principal-provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { doc, iamClientFor, iamContext, TRUST } from './iam-helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';

const sandbox = useSandbox();
const provider = new PrincipalProvider(ROLE);
const type = 'AWS::IAM::Role';
let context: ProviderContext;

beforeAll(() => {
  context = iamContext();
});
afterEach(() => clearFaults(sandbox.current));

const base = {
  AssumeRolePolicyDocument: TRUST,
  Policies: [{ PolicyName: 'read', PolicyDocument: doc('s3:GetObject') }],
  ManagedPolicyArns: ['arn:aws:iam::aws:policy/ReadOnlyAccess'],
  Tags: [{ Key: 'team', Value: 'a' }],
  MaxSessionDuration: '7200',
};

describe('AWS::IAM::Role', () => {
  it('creates a named role with its policies, reads it back, and records its identity', async () => {
    const created = await provider.create(
      {
        logicalId: 'Fn',
        type,
        properties: { ...base, RoleName: 'fn-role', Path: '/app/', Description: 'd' },
      },
      context,
    );
    expect(created.physicalId).toBe('fn-role');
    expect(created.ref).toBeUndefined();
    expect(created.attributes.Arn).toBe('arn:aws:iam::000000000000:role/app/fn-role');
    expect(created.attributes.RoleId).toMatch(/^AROA/);
    expect(created.creationIdentity).toMatchObject({
      Arn: created.attributes.Arn,
      RoleId: created.attributes.RoleId,
    });
    const live = await provider.read(
      { logicalId: 'Fn', type, physicalId: 'fn-role', properties: {} },
      context,
    );
    expect(live?.properties).toEqual({
      RoleName: 'fn-role',
      Path: '/app/',
      Description: 'd',
      AssumeRolePolicyDocument: TRUST,
      MaxSessionDuration: 7200,
      Tags: [{ Key: 'team', Value: 'a' }],
      Policies: base.Policies,
      ManagedPolicyArns: base.ManagedPolicyArns,
    });
    expect(live?.creationIdentity).toEqual(created.creationIdentity);
  });

  it('updates trust, description, duration, boundary, tags and policies in place (adding before removing)', async () => {
    const created = await provider.create({ logicalId: 'Upd', type, properties: base }, context);
    const after = {
      AssumeRolePolicyDocument: {
        ...TRUST,
        Statement: [{ ...TRUST.Statement[0], Principal: { Service: 'ec2.amazonaws.com' } }],
      },
      Description: 'now described',
      PermissionsBoundary: 'arn:aws:iam::aws:policy/PowerUserAccess',
      Policies: [
        { PolicyName: 'read', PolicyDocument: doc('s3:ListBucket') },
        { PolicyName: 'write', PolicyDocument: doc('s3:PutObject') },
      ],
      ManagedPolicyArns: ['arn:aws:iam::aws:policy/AWSLambdaExecute'],
      Tags: [{ Key: 'env', Value: 'prod' }],
    };
    const updated = await provider.update(
      { logicalId: 'Upd', type, physicalId: created.physicalId, previousProperties: base, properties: after },
      context,
    );
    expect(updated.attributes).toEqual(created.attributes);
    const live = await provider.read(
      { logicalId: 'Upd', type, physicalId: created.physicalId, properties: {} },
      context,
    );
    expect(live?.properties).toMatchObject({ ...after, MaxSessionDuration: 3600 });
  });

  it('deletes a role with inline and attached policies; deleting it again succeeds; read is then undefined', async () => {
    const created = await provider.create({ logicalId: 'Del', type, properties: base }, context);
    const iam = await iamClientFor(context);
    // A policy another resource (AWS::IAM::Policy) put on the role does not block the delete either.
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: created.physicalId,
        PolicyName: 'other',
        PolicyDocument: JSON.stringify(doc('sqs:*')),
      }),
    );
    const request = { logicalId: 'Del', type, physicalId: created.physicalId, properties: base };
    await provider.delete(request, context);
    await provider.delete(request, context);
    expect(await provider.read(request, context)).toBeUndefined();
  });

  it('generates a CloudFormation-style name within 64 characters of the IAM character set', async () => {
    const long = new PrincipalProvider(ROLE);
    const created = await long.create(
      {
        logicalId: 'AVeryLongLogicalIdForTheRoleThatGoesOnAndOn',
        type,
        properties: { AssumeRolePolicyDocument: TRUST },
      },
      iamContext('a-stack-name-that-is-also-quite-long-indeed'),
    );
    expect(created.physicalId).toHaveLength(64);
    expect(created.physicalId).toMatch(/^a-stack-name-that-is-also-AVeryLongLogicalIdForTheR-[A-Z0-9]{12}$/);
    const iam = await iamClientFor(context);
    expect((await iam.send(new GetRoleCommand({ RoleName: created.physicalId }))).Role?.RoleName).toBe(
      created.physicalId,
    );
  });

  it('removes a half-made role when a policy fails, and keeps the AWS error for the retry classes', async () => {
    const properties = {
      RoleName: 'half-made',
      AssumeRolePolicyDocument: TRUST,
      Policies: [{ PolicyName: 'bad', PolicyDocument: { NoStatement: true } }],
    };
    const error = await provider
      .create({ logicalId: 'Half', type, properties }, context)
      .catch((e: Error) => e);
    expect((error as Error).name).toBe('MalformedPolicyDocumentException');
    const iam = await iamClientFor(context);
    await expect(iam.send(new GetRoleCommand({ RoleName: 'half-made' }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it('reports the role made when a policy fails and removing it fails too; the retry takes it back', async () => {
    const request = {
      logicalId: 'Stuck',
      type,
      properties: { ...base, RoleName: 'stuck-role' },
      idempotencyToken: 'token-stuck',
    };
    await failNext(sandbox.current, 'iam', 'PutRolePolicy', { errorCode: 'MalformedPolicyDocument' });
    await failNext(sandbox.current, 'iam', 'DeleteRole', { errorCode: 'ValidationError' });
    // The original error is carried, not the failed removal's.
    const made = await madeError(provider.create(request, context), 'MalformedPolicyDocument');
    expect(made.made.physicalId).toBe('stuck-role');
    const live = await provider.read({ ...request, physicalId: 'stuck-role' }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    // An explicit name is refused to any other create, but the retry of this one takes its role back.
    const other = await provider
      .create({ ...request, idempotencyToken: 'token-other' }, context)
      .catch((e: Error) => e);
    expect((other as Error).name).toBe('EntityAlreadyExistsException');
    const retried = await provider.create(request, context);
    expect(retried.physicalId).toBe('stuck-role');
    expect(retried.creationIdentity).toEqual(made.made.creationIdentity);
    expect(
      (await provider.read({ ...request, physicalId: 'stuck-role' }, context))!.properties,
    ).toMatchObject({
      Policies: base.Policies,
      ManagedPolicyArns: base.ManagedPolicyArns,
    });
  });

  it('a retried create adopts the role its lost first attempt made, only when the name was generated', async () => {
    const request = { logicalId: 'Retried', type, properties: base, idempotencyToken: 'token-a' };
    const first = await provider.create(request, context);
    const again = await provider.create(request, context);
    expect(again.physicalId).toBe(first.physicalId);
    expect(again.creationIdentity).toEqual(first.creationIdentity);
    const named = { ...request, logicalId: 'Named', properties: { ...base, RoleName: 'someone-elses' } };
    await provider.create(named, context);
    const error = await provider.create(named, context).catch((e: Error) => e);
    expect((error as Error).name).toBe('EntityAlreadyExistsException');
  });

  it('replaces on RoleName or Path, updates everything else in place', () => {
    expect(provider.canUpdateInPlace(type, ['RoleName'])).toBe(false);
    expect(provider.canUpdateInPlace(type, ['Path'])).toBe(false);
    expect(
      provider.canUpdateInPlace(type, [
        'AssumeRolePolicyDocument',
        'Description',
        'ManagedPolicyArns',
        'MaxSessionDuration',
        'PermissionsBoundary',
        'Policies',
        'Tags',
      ]),
    ).toBe(true);
  });

  it('covers every Role property and reports any other', () => {
    expect(
      provider.uncoveredProperties(type, {
        ...base,
        RoleName: 'x',
        Path: '/',
        Description: '',
        PermissionsBoundary: 'a',
      }),
    ).toEqual([]);
    expect(provider.uncoveredProperties(type, { ...base, Future: 1 })).toEqual(['Future']);
  });

  it('leaves an emptied role with no inline or attached policies', async () => {
    const created = await provider.create({ logicalId: 'Empty', type, properties: base }, context);
    await provider.update(
      {
        logicalId: 'Empty',
        type,
        physicalId: created.physicalId,
        previousProperties: base,
        properties: { AssumeRolePolicyDocument: TRUST },
      },
      context,
    );
    const iam = await iamClientFor(context);
    expect(
      (await iam.send(new ListRolePoliciesCommand({ RoleName: created.physicalId }))).PolicyNames,
    ).toEqual([]);
    expect(
      (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: created.physicalId })))
        .AttachedPolicies,
    ).toEqual([]);
  });
});

import {
  AddRoleToInstanceProfileCommand,
  AttachRolePolicyCommand,
  CreateInstanceProfileCommand,
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  CreateRoleCommand,
  CreateUserCommand,
  CreateGroupCommand,
  AddUserToGroupCommand,
  DeleteGroupCommand,
  DeletePolicyCommand,
  DeletePolicyVersionCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListPolicyVersionsCommand,
  ListRolePoliciesCommand,
  ListRoleTagsCommand,
  PutRolePermissionsBoundaryCommand,
  PutRolePolicyCommand,
  RemoveRoleFromInstanceProfileCommand,
  TagRoleCommand,
  UntagRoleCommand,
  UpdateAssumeRolePolicyCommand,
  UpdateRoleCommand,
} from '@aws-sdk/client-iam';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { SandboxContext, ServiceModuleFactory } from '../../src/sandbox/service-module.js';
import { createIamService, isMutatingIam } from '../../src/sandbox/services/iam/index.js';
import { queryCodec } from '../../src/sandbox/protocols/query.js';
import { iamRoleDirectory, trusts } from '../../src/sandbox/services/iam/role-directory.js';
import { admin, failure } from './helpers.js';

const ACCOUNT = '123456789012';
const TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const DOC = (action = 's3:GetObject') =>
  JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }] });

let sandbox: Sandbox;
let iam: IAMClient;
/** A stand-in for another module (the Lambda one) holding its own SandboxContext. */
let peer: SandboxContext;

beforeAll(async () => {
  const probe: ServiceModuleFactory = async (context) => {
    peer = context;
    return {
      name: 'probe',
      codec: queryCodec,
      operation: () => 'Probe',
      isMutating: () => false,
      handle: async () => ({ status: 200 }),
      inventory: () => ({}),
    };
  };
  // The probe starts first: the directory must not depend on module order.
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT, services: [probe, createIamService] });
  iam = new IAMClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  iam.destroy();
  await sandbox.stop();
});

async function role(name: string, extra: Partial<ConstructorParameters<typeof CreateRoleCommand>[0]> = {}) {
  return (
    await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: TRUST, ...extra }))
  ).Role!;
}

describe('IAM roles', () => {
  it('creates a role with an ARN from its path, an AROA id, tags, and the trust policy URL-encoded', async () => {
    const created = await role('app', {
      Path: '/service/',
      Description: 'd',
      MaxSessionDuration: 7200,
      Tags: [{ Key: 'team', Value: 'a' }],
    });
    expect(created.Arn).toBe(`arn:aws:iam::${ACCOUNT}:role/service/app`);
    expect(created.RoleId).toMatch(/^AROA[A-Z2-7]{17}$/);
    const got = (await iam.send(new GetRoleCommand({ RoleName: 'APP' }))).Role!;
    expect(got).toMatchObject({
      RoleName: 'app',
      Description: 'd',
      MaxSessionDuration: 7200,
      Tags: [{ Key: 'team', Value: 'a' }],
    });
    expect(JSON.parse(decodeURIComponent(got.AssumeRolePolicyDocument!))).toEqual(JSON.parse(TRUST));
    expect(got.CreateDate).toBeInstanceOf(Date);
  });

  it('refuses a duplicate name (409), a bad name or trust policy (400), and an unknown role (404)', async () => {
    await role('dup');
    expect(await failure(role('DUP'))).toMatchObject({ name: 'EntityAlreadyExistsException', status: 409 });
    expect(await failure(role('x'.repeat(65)))).toMatchObject({ name: 'ValidationError', status: 400 });
    expect(await failure(role('bad/name'))).toMatchObject({ name: 'ValidationError', status: 400 });
    expect(
      await failure(
        iam.send(new CreateRoleCommand({ RoleName: 'j', AssumeRolePolicyDocument: '{not json' })),
      ),
    ).toMatchObject({ name: 'MalformedPolicyDocumentException', status: 400 });
    expect(await failure(iam.send(new GetRoleCommand({ RoleName: 'nope' })))).toMatchObject({
      name: 'NoSuchEntityException',
      status: 404,
    });
  });

  it('updates the description, session duration, trust policy, tags and boundary', async () => {
    await role('upd');
    await iam.send(new UpdateRoleCommand({ RoleName: 'upd', Description: 'new', MaxSessionDuration: 43200 }));
    const trust2 = TRUST.replace('lambda', 'ec2');
    await iam.send(new UpdateAssumeRolePolicyCommand({ RoleName: 'upd', PolicyDocument: trust2 }));
    await iam.send(
      new TagRoleCommand({
        RoleName: 'upd',
        Tags: [
          { Key: 'a', Value: '1' },
          { Key: 'b', Value: '2' },
        ],
      }),
    );
    await iam.send(new UntagRoleCommand({ RoleName: 'upd', TagKeys: ['a'] }));
    const boundary = 'arn:aws:iam::aws:policy/PowerUserAccess';
    await iam.send(new PutRolePermissionsBoundaryCommand({ RoleName: 'upd', PermissionsBoundary: boundary }));
    const got = (await iam.send(new GetRoleCommand({ RoleName: 'upd' }))).Role!;
    expect(got).toMatchObject({ Description: 'new', MaxSessionDuration: 43200 });
    expect(decodeURIComponent(got.AssumeRolePolicyDocument!)).toBe(trust2);
    expect(got.PermissionsBoundary?.PermissionsBoundaryArn).toBe(boundary);
    expect((await iam.send(new ListRoleTagsCommand({ RoleName: 'upd' }))).Tags).toEqual([
      { Key: 'b', Value: '2' },
    ]);
    expect(
      await failure(iam.send(new UpdateRoleCommand({ RoleName: 'upd', MaxSessionDuration: 60 }))),
    ).toMatchObject({ name: 'ValidationError', status: 400 });
  });

  it('holds inline and attached policies and refuses DeleteRole (409) until they are gone', async () => {
    await role('busy');
    await iam.send(new PutRolePolicyCommand({ RoleName: 'busy', PolicyName: 'p', PolicyDocument: DOC() }));
    const arn = 'arn:aws:iam::aws:policy/ReadOnlyAccess';
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'busy', PolicyArn: arn }));
    expect((await iam.send(new ListRolePoliciesCommand({ RoleName: 'busy' }))).PolicyNames).toEqual(['p']);
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: 'busy', PolicyName: 'p' }));
    expect(decodeURIComponent(got.PolicyDocument!)).toBe(DOC());
    expect(
      (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'busy' }))).AttachedPolicies,
    ).toEqual([{ PolicyName: 'ReadOnlyAccess', PolicyArn: arn }]);
    const conflict = await failure(iam.send(new DeleteRoleCommand({ RoleName: 'busy' })));
    expect(conflict).toMatchObject({ name: 'DeleteConflictException', status: 409 });
    expect(conflict.error.message).toBe('Cannot delete entity, must delete policies first.');
    await iam.send(new DeleteRolePolicyCommand({ RoleName: 'busy', PolicyName: 'p' }));
    expect(await failure(iam.send(new DeleteRoleCommand({ RoleName: 'busy' })))).toMatchObject({
      name: 'DeleteConflictException',
    });
    await iam.send(new DetachRolePolicyCommand({ RoleName: 'busy', PolicyArn: arn }));
    await iam.send(new DeleteRoleCommand({ RoleName: 'busy' }));
    expect(
      await failure(iam.send(new GetRolePolicyCommand({ RoleName: 'busy', PolicyName: 'p' }))),
    ).toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it('refuses a malformed inline policy, an unknown managed policy, and an 11th attachment', async () => {
    await role('lim');
    expect(
      await failure(
        iam.send(new PutRolePolicyCommand({ RoleName: 'lim', PolicyName: 'p', PolicyDocument: '{}' })),
      ),
    ).toMatchObject({ name: 'MalformedPolicyDocumentException', status: 400 });
    expect(
      await failure(
        iam.send(
          new AttachRolePolicyCommand({ RoleName: 'lim', PolicyArn: `arn:aws:iam::${ACCOUNT}:policy/none` }),
        ),
      ),
    ).toMatchObject({ name: 'NoSuchEntityException', status: 404 });
    for (let i = 0; i < 10; i++) {
      await iam.send(
        new AttachRolePolicyCommand({ RoleName: 'lim', PolicyArn: `arn:aws:iam::aws:policy/P${i}` }),
      );
    }
    expect(
      await failure(
        iam.send(new AttachRolePolicyCommand({ RoleName: 'lim', PolicyArn: 'arn:aws:iam::aws:policy/P10' })),
      ),
    ).toMatchObject({ name: 'LimitExceededException', status: 409 });
    const big = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 'x:'.padEnd(11000, 'y'), Resource: '*' }],
    });
    expect(
      await failure(
        iam.send(new PutRolePolicyCommand({ RoleName: 'lim', PolicyName: 'big', PolicyDocument: big })),
      ),
    ).toMatchObject({ name: 'LimitExceededException', status: 409 });
  });

  it('never reuses a RoleId for a re-created name', async () => {
    const first = await role('again');
    await iam.send(new DeleteRoleCommand({ RoleName: 'again' }));
    const second = await role('again');
    expect(second.RoleId).not.toBe(first.RoleId);
  });
});

describe('IAM managed policies', () => {
  it('creates versions up to five, then LimitExceeded; deletes only when detached and single-versioned', async () => {
    const policy = (
      await iam.send(new CreatePolicyCommand({ PolicyName: 'mp', PolicyDocument: DOC(), Path: '/x/' }))
    ).Policy!;
    expect(policy).toMatchObject({
      Arn: `arn:aws:iam::${ACCOUNT}:policy/x/mp`,
      DefaultVersionId: 'v1',
      AttachmentCount: 0,
    });
    expect(policy.PolicyId).toMatch(/^ANPA/);
    expect(
      await failure(
        iam.send(new CreatePolicyCommand({ PolicyName: 'mp', PolicyDocument: DOC(), Path: '/x/' })),
      ),
    ).toMatchObject({ name: 'EntityAlreadyExistsException', status: 409 });
    for (let i = 2; i <= 5; i++) {
      await iam.send(
        new CreatePolicyVersionCommand({
          PolicyArn: policy.Arn,
          PolicyDocument: DOC(`s3:V${i}`),
          SetAsDefault: true,
        }),
      );
    }
    expect(
      await failure(
        iam.send(new CreatePolicyVersionCommand({ PolicyArn: policy.Arn, PolicyDocument: DOC() })),
      ),
    ).toMatchObject({ name: 'LimitExceededException', status: 409 });
    const versions = (await iam.send(new ListPolicyVersionsCommand({ PolicyArn: policy.Arn }))).Versions!;
    expect(versions.map((v) => `${v.VersionId}:${v.IsDefaultVersion}`)).toEqual([
      'v5:true',
      'v4:false',
      'v3:false',
      'v2:false',
      'v1:false',
    ]);
    const v5 = (await iam.send(new GetPolicyVersionCommand({ PolicyArn: policy.Arn, VersionId: 'v5' })))
      .PolicyVersion!;
    expect(decodeURIComponent(v5.Document!)).toBe(DOC('s3:V5'));
    expect(
      await failure(iam.send(new DeletePolicyVersionCommand({ PolicyArn: policy.Arn, VersionId: 'v5' }))),
    ).toMatchObject({ name: 'DeleteConflictException', status: 409 });

    await role('holder');
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'holder', PolicyArn: policy.Arn }));
    expect((await iam.send(new GetPolicyCommand({ PolicyArn: policy.Arn }))).Policy!.AttachmentCount).toBe(1);
    expect(await failure(iam.send(new DeletePolicyCommand({ PolicyArn: policy.Arn })))).toMatchObject({
      name: 'DeleteConflictException',
    });
    await iam.send(new DetachRolePolicyCommand({ RoleName: 'holder', PolicyArn: policy.Arn }));
    expect(await failure(iam.send(new DeletePolicyCommand({ PolicyArn: policy.Arn })))).toMatchObject({
      name: 'DeleteConflictException',
    });
    for (const id of ['v1', 'v2', 'v3', 'v4']) {
      await iam.send(new DeletePolicyVersionCommand({ PolicyArn: policy.Arn, VersionId: id }));
    }
    await iam.send(new DeletePolicyCommand({ PolicyArn: policy.Arn }));
    expect(await failure(iam.send(new GetPolicyCommand({ PolicyArn: policy.Arn })))).toMatchObject({
      name: 'NoSuchEntityException',
      status: 404,
    });
  });
});

describe('IAM instance profiles, users and groups', () => {
  it('an instance profile holds one role, and keeps the role from being deleted', async () => {
    await role('ip-role');
    await role('ip-other');
    await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'ip' }));
    await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'ip', RoleName: 'ip-role' }));
    expect(
      await failure(
        iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'ip', RoleName: 'ip-other' })),
      ),
    ).toMatchObject({ name: 'LimitExceededException', status: 409 });
    expect(await failure(iam.send(new DeleteRoleCommand({ RoleName: 'ip-role' })))).toMatchObject({
      name: 'DeleteConflictException',
      status: 409,
    });
    await iam.send(
      new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: 'ip', RoleName: 'ip-role' }),
    );
    await iam.send(new DeleteRoleCommand({ RoleName: 'ip-role' }));
  });

  it('a group with members cannot be deleted', async () => {
    await iam.send(new CreateUserCommand({ UserName: 'u1' }));
    await iam.send(new CreateGroupCommand({ GroupName: 'g1' }));
    await iam.send(new AddUserToGroupCommand({ GroupName: 'g1', UserName: 'u1' }));
    expect(await failure(iam.send(new DeleteGroupCommand({ GroupName: 'g1' })))).toMatchObject({
      name: 'DeleteConflictException',
      status: 409,
    });
  });

  it('lists what it holds by CloudFormation type, and marks only Get/List as read-only', async () => {
    const { json } = await admin(sandbox, 'GET', 'inventory');
    const inventory = json.iam as Record<string, Array<{ id: string }>>;
    expect(inventory['AWS::IAM::Role']!.map((r) => r.id)).toContain('app');
    expect(inventory['AWS::IAM::InstanceProfile']!.map((r) => r.id)).toContain('ip');
    expect(inventory['AWS::IAM::User']!.map((r) => r.id)).toContain('u1');
    expect(isMutatingIam('GetRole')).toBe(false);
    expect(isMutatingIam('ListRolePolicies')).toBe(false);
    expect(isMutatingIam('PutRolePolicy')).toBe(true);
    expect(isMutatingIam('DeleteRole')).toBe(true);
  });
});

describe('the role directory other modules read', () => {
  const arn = `arn:aws:iam::${ACCOUNT}:role/service/app`;

  it('finds a role by ARN, and not by a wrong path or a deleted role', () => {
    const directory = iamRoleDirectory(peer);
    expect(directory.lookup(arn)).toMatchObject({ roleName: 'app', arn });
    expect(directory.lookup(`arn:aws:iam::${ACCOUNT}:role/app`)).toBeUndefined();
    expect(directory.lookup(`arn:aws:iam::${ACCOUNT}:role/busy`)).toBeUndefined();
  });

  it('a role is assumable only after the propagation window set as AWS::IAM::Role create latency', async () => {
    const directory = iamRoleDirectory(peer);
    const created = directory.lookup(arn)!.createdAt;
    expect(directory.assumableBy(arn, 'lambda.amazonaws.com', created)).toBe(true);
    await admin(sandbox, 'PUT', 'latency', { types: { 'AWS::IAM::Role': { create: 5000 } } });
    try {
      expect(directory.propagationMs()).toBe(5000);
      expect(directory.assumableBy(arn, 'lambda.amazonaws.com', created + 4999)).toBe(false);
      expect(directory.assumableBy(arn, 'lambda.amazonaws.com', created + 5000)).toBe(true);
      expect(directory.assumableBy(arn, 'ec2.amazonaws.com', created + 5000)).toBe(false);
    } finally {
      await admin(sandbox, 'PUT', 'latency', {});
    }
  });

  it.each([
    [
      {
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: ['a', 'lambda.amazonaws.com'] },
            Action: ['sts:AssumeRole'],
          },
        ],
      },
      true,
    ],
    [{ Statement: { Effect: 'Allow', Principal: '*', Action: 'sts:*' } }, true],
    [
      {
        Statement: [
          { Effect: 'Deny', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
      false,
    ],
    [
      { Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 's3:*' }] },
      false,
    ],
    [
      {
        Statement: [{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::1:root' }, Action: 'sts:AssumeRole' }],
      },
      false,
    ],
  ])('trust policy %j lets lambda assume: %s', (policy, expected) => {
    expect(trusts(policy, 'lambda.amazonaws.com')).toBe(expected);
  });
});

describe('IAM persistence', () => {
  it('a role survives a restart on the same data dir, with its id', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cdkd-iam-'));
    const start = () => startSandbox({ port: 0, accountId: ACCOUNT, dataDir });
    const client = (box: Sandbox) =>
      new IAMClient({
        endpoint: box.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
        maxAttempts: 1,
      });
    try {
      const first = await start();
      const iamA = client(first);
      const made = (
        await iamA.send(new CreateRoleCommand({ RoleName: 'kept', AssumeRolePolicyDocument: TRUST }))
      ).Role!;
      await iamA.send(new PutRolePolicyCommand({ RoleName: 'kept', PolicyName: 'p', PolicyDocument: DOC() }));
      iamA.destroy();
      await first.stop();
      const second = await start();
      const iamB = client(second);
      expect((await iamB.send(new GetRoleCommand({ RoleName: 'kept' }))).Role!.RoleId).toBe(made.RoleId);
      expect((await iamB.send(new ListRolePoliciesCommand({ RoleName: 'kept' }))).PolicyNames).toEqual(['p']);
      iamB.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

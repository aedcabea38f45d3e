import { GetRoleCommand, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { attributesOf } from '../../src/resource-types/schemas.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { registerIam } from '../../src/providers/iam/index.js';
import { IAM_REF_ATTRIBUTES } from '../../src/providers/iam/ref-attributes.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { admin } from '../sandbox/helpers.js';
import { ACCOUNT, doc, iamClientFor, iamContext, TRUST } from './iam-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
let engine: Engine;
let context: ProviderContext;
let registry: ProviderRegistry;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'iam-engine-state' }));
  registry = registerIam(new ProviderRegistry(new CloudControlProvider()));
  engine = await createEngine({
    backend: await openStateBackend(clients, 'iam-engine-state', 'cdkd'),
    clients,
    registry,
    io: eventsTo(() => undefined),
    command: 'deploy',
    regions: ['us-east-1'],
  });
  context = iamContext();
});

const ref = (logicalId: string) => ({ Ref: logicalId });
const getAtt = (logicalId: string, attribute: string) => ({ 'Fn::GetAtt': [logicalId, attribute] });

/** Every IAM type, wired together, with an output per row of the Ref/GetAtt table. */
function template(roleName: string) {
  const resources = {
    Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: roleName, AssumeRolePolicyDocument: TRUST } },
    Pol: {
      Type: 'AWS::IAM::Policy',
      Properties: { PolicyName: 'inline', PolicyDocument: doc('s3:GetObject'), Roles: [ref('Role')] },
    },
    Managed: {
      Type: 'AWS::IAM::ManagedPolicy',
      Properties: { ManagedPolicyName: 'tbl-managed', PolicyDocument: doc('sqs:*'), Roles: [ref('Role')] },
    },
    Profile: { Type: 'AWS::IAM::InstanceProfile', Properties: { Roles: [ref('Role')] } },
    Group: { Type: 'AWS::IAM::Group', Properties: { GroupName: 'tbl-group' } },
    User: { Type: 'AWS::IAM::User', Properties: { UserName: 'tbl-user', Groups: [ref('Group')] } },
  };
  const outputs: Record<string, { Value: unknown }> = {};
  for (const [logicalId, { Type }] of Object.entries(resources)) {
    outputs[`${logicalId}Ref`] = { Value: ref(logicalId) };
    const row = IAM_REF_ATTRIBUTES[Type as keyof typeof IAM_REF_ATTRIBUTES];
    for (const attribute of Object.keys(row.attributes)) {
      outputs[`${logicalId}${attribute}`] = { Value: getAtt(logicalId, attribute) };
    }
  }
  return { Resources: resources, Outputs: outputs };
}

const stack = { stateName: 'IamTable', stackName: 'IamTable', region: 'us-east-1', accountId: ACCOUNT };
const options = { concurrency: 4 };

describe('IAM through the engine', () => {
  it('the table lists exactly the schema attributes of each type', () => {
    for (const [type, row] of Object.entries(IAM_REF_ATTRIBUTES)) {
      expect(Object.keys(row.attributes).sort(), type).toEqual([...attributesOf(type)].sort());
    }
  });

  it('Ref and every Fn::GetAtt resolve as CloudFormation gives them', async () => {
    const result = await engine.deploy({ ...stack, template: template('tbl-role-1') }, options);
    const out = Object.fromEntries(
      Object.entries(result.outputs).map(([key, output]) => [key, output.value]),
    );
    const arn = (kind: string, name: string) => `arn:aws:iam::${ACCOUNT}:${kind}/${name}`;
    // AWS::IAM::Role
    expect(out.RoleRef).toBe('tbl-role-1');
    expect(out.RoleArn).toBe(arn('role', 'tbl-role-1'));
    expect(out.RoleRoleId).toMatch(/^AROA[A-Z2-7]{17}$/);
    // AWS::IAM::Policy
    expect(out.PolRef).toMatch(/^IamTable-Pol-[A-Z0-9]{12}$/);
    expect(out.PolId).toBe(out.PolRef);
    // AWS::IAM::ManagedPolicy
    expect(out.ManagedRef).toBe(arn('policy', 'tbl-managed'));
    expect(out.ManagedPolicyArn).toBe(out.ManagedRef);
    expect(out.ManagedPolicyId).toMatch(/^ANPA/);
    expect(out.ManagedAttachmentCount).toBe(1);
    expect(out.ManagedDefaultVersionId).toBe('v1');
    expect(out.ManagedIsAttachable).toBe(true);
    expect(out.ManagedPermissionsBoundaryUsageCount).toBe(0);
    expect(out.ManagedCreateDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(out.ManagedUpdateDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    // AWS::IAM::InstanceProfile
    expect(out.ProfileRef).toMatch(/^IamTable-Profile-[A-Z0-9]{12}$/);
    expect(out.ProfileArn).toBe(arn('instance-profile', String(out.ProfileRef)));
    // AWS::IAM::Group and AWS::IAM::User
    expect(out.GroupRef).toBe('tbl-group');
    expect(out.GroupArn).toBe(arn('group', 'tbl-group'));
    expect(out.UserRef).toBe('tbl-user');
    expect(out.UserArn).toBe(arn('user', 'tbl-user'));
  });

  it('a RoleName change replaces the role: its dependents move to the new one, the old one is deleted', async () => {
    const provider = registry.providerFor('AWS::IAM::Role', 'sdk');
    expect(provider.canUpdateInPlace('AWS::IAM::Role', ['RoleName'])).toBe(false);
    const before = await (await iamClientFor(context)).send(new GetRoleCommand({ RoleName: 'tbl-role-1' }));
    await engine.deploy({ ...stack, template: template('tbl-role-2') }, options);
    const iam = await iamClientFor(context);
    const after = (await iam.send(new GetRoleCommand({ RoleName: 'tbl-role-2' }))).Role!;
    expect(after.RoleId).not.toBe(before.Role!.RoleId);
    await expect(iam.send(new GetRoleCommand({ RoleName: 'tbl-role-1' }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
    expect((await iam.send(new ListRolePoliciesCommand({ RoleName: 'tbl-role-2' }))).PolicyNames).toEqual([
      'inline',
    ]);
  });

  it('destroy removes every IAM resource', async () => {
    await engine.destroy(stack, options);
    const { json } = await admin(sandbox.current, 'GET', 'inventory');
    for (const [type, entries] of Object.entries(json.iam as Record<string, unknown[]>)) {
      expect(entries, type).toEqual([]);
    }
  });
});

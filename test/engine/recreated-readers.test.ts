import { DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 002 "Readers of the target", end to end on the sandbox: a security group whose
 * AWS-assigned id moves when a create-only change recreates it, an in-place reader updated to
 * the new id, and a chain of create-only readers replaced in turn, all in the same deploy.
 */
const sandbox = useSandboxEngine('recreated-readers-state');

function resources(description: string) {
  return {
    Sg: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: description } },
    // Value can change in place: updated to the new id.
    InPlace: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: '/readers/in-place', Type: 'String', Value: { Ref: 'Sg' } },
    },
    // Name is create-only: a new id is a new parameter, and so is the one naming this one.
    ChainA: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: { 'Fn::Sub': '/readers/a-${Sg}' }, Type: 'String', Value: 'a' },
    },
    ChainB: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: { 'Fn::Sub': '/readers/b${ChainA}' }, Type: 'String', Value: 'b' },
    },
  };
}

async function parameters(Path = '/readers'): Promise<Record<string, string>> {
  const ssm = await sandbox.clients.client(SSMClient, REGION);
  const found = await ssm.send(new GetParametersByPathCommand({ Path, Recursive: true }));
  return Object.fromEntries((found.Parameters ?? []).map((p) => [p.Name!, p.Value!]));
}

describe('a security group recreated with a new id', () => {
  it('moves its in-place reader to the new id and replaces its create-only reader chain in the same deploy', async () => {
    await sandbox.deploy('Readers', resources('one'));
    const store = sandbox.backend.store;
    const ref = { stackName: 'Readers', region: REGION };
    const before = (await store.read(ref))!.document.resources;
    const oldSg = before.Sg!.physicalId;

    await sandbox.deploy('Readers', resources('two'));
    const after = (await store.read(ref))!.document.resources;
    const newSg = after.Sg!.physicalId;
    expect(newSg).not.toBe(oldSg);

    const actions = Object.fromEntries(
      sandbox.events.flatMap((e) =>
        e.kind === 'resource' && e.status === 'succeeded' ? [[e.logicalId, e.action]] : [],
      ),
    );
    expect(actions).toMatchObject({ Sg: 'replace', InPlace: 'update', ChainA: 'replace', ChainB: 'replace' });
    expect(after.InPlace!.physicalId).toBe(before.InPlace!.physicalId);
    expect(await parameters()).toEqual({
      '/readers/in-place': newSg,
      [`/readers/a-${newSg}`]: 'a',
      [`/readers/b/readers/a-${newSg}`]: 'b',
    });
    const ec2 = await sandbox.clients.client(EC2Client, REGION);
    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? [];
    expect(groups.map((g) => g.GroupId)).not.toContain(oldSg);
  });
});

/** A bucket named by a template parameter: a computed name, so planned as one whose id moves. */
async function deployNamedByParameter(objectLock: boolean, options: Record<string, unknown> = {}) {
  const engine = await sandbox.engine();
  return engine.deploy(
    {
      ...stackIdentity('KeptId'),
      template: {
        Parameters: { Name: { Type: 'String', Default: 'kept-id-bucket' } },
        Resources: {
          Bucket: {
            Type: 'AWS::S3::Bucket',
            Properties: { BucketName: { Ref: 'Name' }, ...(objectLock ? { ObjectLockEnabled: true } : {}) },
          },
          // Name is create-only: replaced if the bucket's id changes.
          Reader: {
            Type: 'AWS::SSM::Parameter',
            Properties: { Name: { 'Fn::Sub': '/kept/${Bucket}' }, Type: 'String', Value: 'r' },
          },
        },
      },
    },
    { concurrency: 4, ...options },
  );
}

describe('a recreate that keeps the id after all', () => {
  it('leaves the create-only reader the plan showed as a possible replacement in place', async () => {
    await deployNamedByParameter(false);
    const before = (await sandbox.backend.store.read({ stackName: 'KeptId', region: REGION }))!.document;
    await deployNamedByParameter(true, { replace: true });
    const after = (await sandbox.backend.store.read({ stackName: 'KeptId', region: REGION }))!.document;
    expect(after.resources.Bucket!.physicalId).toBe(before.resources.Bucket!.physicalId);
    expect(after.resources.Bucket!.properties).toMatchObject({ ObjectLockEnabled: true });
    expect(after.resources.Reader).toEqual(before.resources.Reader);
    const reader = sandbox.events.flatMap((e) =>
      e.kind === 'resource' && e.logicalId === 'Reader' ? [`${e.action}:${e.status}`] : [],
    );
    expect(reader).toEqual(['update:skipped']);
    expect(await parameters('/kept')).toEqual({ '/kept/kept-id-bucket': 'r' });
  });
});

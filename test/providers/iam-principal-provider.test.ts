import {
  CreateGroupCommand,
  DeleteGroupCommand,
  GetGroupCommand,
  UpdateGroupCommand,
  type Group,
} from '@aws-sdk/client-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { changed } from '../../src/providers/iam/common.js';
import { PrincipalProvider, type PrincipalDescription } from '../../src/providers/iam/principal-provider.js';
import { ROLE } from '../../src/providers/iam/role.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { useSandbox } from '../helpers/sandbox.js';
import { doc, iamClientFor, iamContext } from './iam-helpers.js';

useSandbox();
let context: ProviderContext;

beforeAll(() => {
  context = iamContext('DescribedStack');
});

const type = 'AWS::IAM::Group';

/** A principal kind written only as data, with none of the optional hooks. */
const described: PrincipalDescription<Group> = {
  type,
  covered: ['GroupName', 'Path', 'Policies', 'ManagedPolicyArns'],
  kind: 'Group',
  nameProperty: 'GroupName',
  create: async (client, { name, properties }, o) =>
    (await client.send(new CreateGroupCommand({ GroupName: name, Path: properties.Path as string }), o))
      .Group,
  get: async (client, GroupName, o) => (await client.send(new GetGroupCommand({ GroupName }), o)).Group,
  async updateProperties(client, GroupName, before, after, o) {
    if (changed(before, after, 'Path'))
      await client.send(new UpdateGroupCommand({ GroupName, NewPath: after.Path as string }), o);
  },
  delete: (client, GroupName, o) => client.send(new DeleteGroupCommand({ GroupName }), o),
  identity: (group) => ({ Arn: group.Arn!, GroupId: group.GroupId! }),
  observed: (group) => ({ GroupName: group.GroupName, Path: group.Path }),
  attributes: (group) => ({ Arn: group.Arn }),
};

describe('a principal description alone', () => {
  const provider = new PrincipalProvider(described);

  it('is the SDK provider of its type: kind, handles, uncovered properties and in-place updates', () => {
    expect(provider.kind).toBe('sdk');
    expect(provider.handles(type)).toBe(true);
    expect(provider.handles('AWS::IAM::User')).toBe(false);
    expect(provider.uncoveredProperties(type, { GroupName: 'g', Path: '/', Tags: [] })).toEqual(['Tags']);
    expect(provider.canUpdateInPlace(type, ['Path', 'Policies'])).toBe(true);
    expect(provider.canUpdateInPlace(type, ['GroupName'])).toBe(false);
  });

  it('knows the name it creates only where a token tag proves a given name', () => {
    expect(provider.createName).toBeUndefined();
    const request = { logicalId: 'R', type: 'AWS::IAM::Role', properties: { RoleName: 'svc' } };
    expect(new PrincipalProvider(ROLE).createName?.(request, context)).toBe('svc');
  });

  it('creates with policies, updates in place, reads, deletes (twice) and then reads nothing', async () => {
    const before = { Path: '/a/', Policies: [{ PolicyName: 'p', PolicyDocument: doc('s3:*') }] };
    const created = await provider.create({ logicalId: 'Team', type, properties: before }, context);
    expect(created.physicalId).toMatch(/^DescribedStack-Team-[A-Z0-9]{12}$/);
    expect(created).toMatchObject({
      attributes: { Arn: `arn:aws:iam::000000000000:group/a/${created.physicalId}` },
      observed: { GroupName: created.physicalId, Path: '/a/' },
    });
    const at = { logicalId: 'Team', type, physicalId: created.physicalId, properties: {} };
    expect((await provider.read(at, context))?.properties).toEqual({
      GroupName: created.physicalId,
      ...before,
    });

    const after = {
      Path: '/b/',
      ManagedPolicyArns: ['arn:aws:iam::aws:policy/ReadOnlyAccess'],
    };
    const updated = await provider.update({ ...at, previousProperties: before, properties: after }, context);
    expect(updated.attributes.Arn).toBe(`arn:aws:iam::000000000000:group/b/${created.physicalId}`);
    expect((await provider.read(at, context))?.properties).toEqual({
      GroupName: created.physicalId,
      ...after,
    });

    await provider.delete(at, context);
    await provider.delete(at, context);
    expect(await provider.read(at, context)).toBeUndefined();
    const iam = await iamClientFor(context);
    await expect(iam.send(new GetGroupCommand({ GroupName: created.physicalId }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
  });
});

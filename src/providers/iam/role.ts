import {
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePermissionsBoundaryCommand,
  GetRoleCommand,
  ListInstanceProfilesForRoleCommand,
  PutRolePermissionsBoundaryCommand,
  RemoveRoleFromInstanceProfileCommand,
  TagRoleCommand,
  UntagRoleCommand,
  UpdateAssumeRolePolicyCommand,
  UpdateRoleCommand,
  type IAMClient,
  type Role,
} from '@aws-sdk/client-iam';
import type { JsonObject } from '../provider.js';
import { TOKEN_TAG } from '../physical-names.js';
import { changed, documentText, integer, parseDocument } from './common.js';
import { collect } from './principal-api.js';
import { ignoreGone } from './principal-policies.js';
import type { CallOptions, PrincipalDescription } from './principal-provider.js';

/** What IAM applies when MaxSessionDuration is not given (and restores when it is removed). */
const DEFAULT_SESSION_SECONDS = 3600;

/**
 * AWS::IAM::Role: CreateRole, then its inline and managed policies. RoleName and Path replace.
 * A named role's create writes the token tag, which proves it to `locate`.
 */
export const ROLE: PrincipalDescription<Role> = {
  type: 'AWS::IAM::Role',
  covered: [
    'AssumeRolePolicyDocument',
    'Description',
    'ManagedPolicyArns',
    'MaxSessionDuration',
    'Path',
    'PermissionsBoundary',
    'Policies',
    'RoleName',
    'Tags',
  ],
  kind: 'Role',
  nameProperty: 'RoleName',
  create: async (client, { name, properties: p, tags }, o) =>
    (
      await client.send(
        new CreateRoleCommand({
          RoleName: name,
          Path: p.Path as string | undefined,
          AssumeRolePolicyDocument: documentText(p.AssumeRolePolicyDocument),
          Description: p.Description as string | undefined,
          MaxSessionDuration: integer(p.MaxSessionDuration),
          PermissionsBoundary: p.PermissionsBoundary as string | undefined,
          Tags: tags.length > 0 ? tags : undefined,
        }),
        o,
      )
    ).Role,
  get: async (client, RoleName, o) => (await client.send(new GetRoleCommand({ RoleName }), o)).Role,
  async updateProperties(client, RoleName, before, after, o) {
    if (changed(before, after, 'AssumeRolePolicyDocument')) {
      const PolicyDocument = documentText(after.AssumeRolePolicyDocument);
      await client.send(new UpdateAssumeRolePolicyCommand({ RoleName, PolicyDocument }), o);
    }
    if (changed(before, after, 'Description') || changed(before, after, 'MaxSessionDuration')) {
      await client.send(
        new UpdateRoleCommand({
          RoleName,
          Description: (after.Description as string | undefined) ?? '',
          MaxSessionDuration: integer(after.MaxSessionDuration) ?? DEFAULT_SESSION_SECONDS,
        }),
        o,
      );
    }
  },
  delete: (client, RoleName, o) => client.send(new DeleteRoleCommand({ RoleName }), o),
  identity: (role) => ({ Arn: role.Arn!, RoleId: role.RoleId!, CreateDate: role.CreateDate!.toISOString() }),
  observed: observedOf,
  // Fn::GetAtt Arn and RoleId (Ref is the role name, the physical id).
  attributes: (role) => ({ Arn: role.Arn, RoleId: role.RoleId }),
  tags: {
    tag: (client, RoleName, Tags, o) => client.send(new TagRoleCommand({ RoleName, Tags }), o),
    untag: (client, RoleName, TagKeys, o) => client.send(new UntagRoleCommand({ RoleName, TagKeys }), o),
    provesCreate: (role) => role.Tags,
  },
  boundary: {
    put: (client, RoleName, PermissionsBoundary, o) =>
      client.send(new PutRolePermissionsBoundaryCommand({ RoleName, PermissionsBoundary }), o),
    remove: (client, RoleName, o) => client.send(new DeleteRolePermissionsBoundaryCommand({ RoleName }), o),
  },
  // DeleteRole refuses while an instance profile holds the role; a profile of the stack adds it back (spec 002).
  release: leaveInstanceProfiles,
};

/**
 * The role as CreateRole (or the GetRole an update reads its attributes from) answers it; its
 * inline and managed policies are written by calls that answer nothing.
 */
function observedOf(role: Role): JsonObject {
  const tags = (role.Tags ?? []).filter((tag) => tag.Key !== TOKEN_TAG);
  return {
    RoleName: role.RoleName,
    Path: role.Path,
    AssumeRolePolicyDocument: parseDocument(role.AssumeRolePolicyDocument),
    MaxSessionDuration: role.MaxSessionDuration,
    ...(role.Description ? { Description: role.Description } : {}),
    ...(role.PermissionsBoundary?.PermissionsBoundaryArn
      ? { PermissionsBoundary: role.PermissionsBoundary.PermissionsBoundaryArn }
      : {}),
    ...(tags.length > 0 ? { Tags: tags } : {}),
  };
}

/** Takes the role out of every instance profile holding it, so DeleteRole is not refused. */
async function leaveInstanceProfiles(client: IAMClient, RoleName: string, o: CallOptions): Promise<void> {
  const profiles = await collect(
    (Marker) => client.send(new ListInstanceProfilesForRoleCommand({ RoleName, Marker }), o),
    (page) => page.InstanceProfiles,
  );
  for (const profile of profiles) {
    await ignoreGone(
      client.send(
        new RemoveRoleFromInstanceProfileCommand({
          InstanceProfileName: profile.InstanceProfileName,
          RoleName,
        }),
        o,
      ),
    );
  }
}

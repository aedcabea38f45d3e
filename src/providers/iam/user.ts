import {
  AddUserToGroupCommand,
  CreateUserCommand,
  DeleteUserCommand,
  DeleteUserPermissionsBoundaryCommand,
  GetUserCommand,
  ListGroupsForUserCommand,
  PutUserPermissionsBoundaryCommand,
  RemoveUserFromGroupCommand,
  TagUserCommand,
  UntagUserCommand,
  UpdateUserCommand,
  type User,
} from '@aws-sdk/client-iam';
import { changed } from './common.js';
import { collect } from './principal-api.js';
import type { PrincipalDescription } from './principal-provider.js';

/**
 * AWS::IAM::User: the user, its policies, groups, tags and boundary. UserName replaces.
 * LoginProfile (a console password) is left to Cloud Control.
 */
export const USER: PrincipalDescription<User> = {
  type: 'AWS::IAM::User',
  covered: ['Groups', 'ManagedPolicyArns', 'Path', 'PermissionsBoundary', 'Policies', 'Tags', 'UserName'],
  kind: 'User',
  nameProperty: 'UserName',
  create: async (client, { name, properties: p, tags }, o) =>
    (
      await client.send(
        new CreateUserCommand({
          UserName: name,
          Path: p.Path as string | undefined,
          PermissionsBoundary: p.PermissionsBoundary as string | undefined,
          Tags: tags.length > 0 ? tags : undefined,
        }),
        o,
      )
    ).User,
  get: async (client, UserName, o) => (await client.send(new GetUserCommand({ UserName }), o)).User,
  async updateProperties(client, UserName, before, after, o) {
    if (changed(before, after, 'Path')) {
      const NewPath = (after.Path as string | undefined) ?? '/';
      await client.send(new UpdateUserCommand({ UserName, NewPath }), o);
    }
  },
  delete: (client, UserName, o) => client.send(new DeleteUserCommand({ UserName }), o),
  identity: (user) => ({ Arn: user.Arn!, UserId: user.UserId!, CreateDate: user.CreateDate!.toISOString() }),
  // The user as CreateUser (or an update's GetUser) answers it; policy and group calls answer nothing.
  observed: (user) => ({
    UserName: user.UserName,
    Path: user.Path,
    ...(user.PermissionsBoundary?.PermissionsBoundaryArn
      ? { PermissionsBoundary: user.PermissionsBoundary.PermissionsBoundaryArn }
      : {}),
    ...(user.Tags && user.Tags.length > 0 ? { Tags: user.Tags } : {}),
  }),
  attributes: (user) => ({ Arn: user.Arn }),
  tags: {
    tag: (client, UserName, Tags, o) => client.send(new TagUserCommand({ UserName, Tags }), o),
    untag: (client, UserName, TagKeys, o) => client.send(new UntagUserCommand({ UserName, TagKeys }), o),
  },
  boundary: {
    put: (client, UserName, PermissionsBoundary, o) =>
      client.send(new PutUserPermissionsBoundaryCommand({ UserName, PermissionsBoundary }), o),
    remove: (client, UserName, o) => client.send(new DeleteUserPermissionsBoundaryCommand({ UserName }), o),
  },
  memberships: {
    property: 'Groups',
    list: (client, UserName, o) =>
      collect(
        (Marker) => client.send(new ListGroupsForUserCommand({ UserName, Marker }), o),
        (page) => (page.Groups ?? []).map((group) => group.GroupName!),
      ),
    join: (client, UserName, GroupName, o) =>
      client.send(new AddUserToGroupCommand({ GroupName, UserName }), o),
    leave: (client, UserName, GroupName, o) =>
      client.send(new RemoveUserFromGroupCommand({ GroupName, UserName }), o),
  },
};

import {
  CreateGroupCommand,
  DeleteGroupCommand,
  GetGroupCommand,
  RemoveUserFromGroupCommand,
  UpdateGroupCommand,
  type Group,
  type IAMClient,
} from '@aws-sdk/client-iam';
import { changed } from './common.js';
import { collect } from './principal-api.js';
import { ignoreGone } from './principal-policies.js';
import type { CallOptions, PrincipalDescription } from './principal-provider.js';

/** AWS::IAM::Group: the group and its policies. GroupName replaces; Path updates in place. */
export const GROUP: PrincipalDescription<Group> = {
  type: 'AWS::IAM::Group',
  covered: ['GroupName', 'ManagedPolicyArns', 'Path', 'Policies'],
  kind: 'Group',
  nameProperty: 'GroupName',
  create: async (client, { name, properties: p }, o) =>
    (await client.send(new CreateGroupCommand({ GroupName: name, Path: p.Path as string | undefined }), o))
      .Group,
  get: async (client, GroupName, o) => (await client.send(new GetGroupCommand({ GroupName }), o)).Group,
  async updateProperties(client, GroupName, before, after, o) {
    if (changed(before, after, 'Path')) {
      const NewPath = (after.Path as string | undefined) ?? '/';
      await client.send(new UpdateGroupCommand({ GroupName, NewPath }), o);
    }
  },
  delete: (client, GroupName, o) => client.send(new DeleteGroupCommand({ GroupName }), o),
  identity: (group) => ({
    Arn: group.Arn!,
    GroupId: group.GroupId!,
    CreateDate: group.CreateDate!.toISOString(),
  }),
  // The group as CreateGroup (or an update's GetGroup) answers it; policy calls answer nothing.
  observed: (group) => ({ GroupName: group.GroupName, Path: group.Path }),
  attributes: (group) => ({ Arn: group.Arn }),
  // DeleteGroup refuses while the group has members; a user's Groups or a UserToGroupAddition
  // of the stack adds them back (spec 002).
  release: removeMembers,
};

/** Removes every member of the group, so DeleteGroup is not refused. */
async function removeMembers(client: IAMClient, GroupName: string, o: CallOptions): Promise<void> {
  const members = await collect(
    (Marker) => client.send(new GetGroupCommand({ GroupName, Marker }), o),
    (page) => page.Users,
  );
  for (const user of members)
    await ignoreGone(client.send(new RemoveUserFromGroupCommand({ GroupName, UserName: user.UserName }), o));
}

import {
  CreateGroupCommand,
  DeleteGroupCommand,
  GetGroupCommand,
  RemoveUserFromGroupCommand,
  UpdateGroupCommand,
  type Group,
  type IAMClient,
} from '@aws-sdk/client-iam';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import {
  changed,
  createOrAdopt,
  findEarlier,
  iamClient,
  isNoSuchEntity,
  mayAdopt,
  generatedName,
  nameFor,
} from './common.js';

import { principalApi } from './principal-api.js';
import { clearPolicies, ignoreGone, readPolicies, syncPolicies } from './principal-policies.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type { ProviderDescription } from '../skeleton.js';
import { IamEntityProvider } from './entity-provider.js';

const TYPE = 'AWS::IAM::Group';
const COVERED = ['GroupName', 'ManagedPolicyArns', 'Path', 'Policies'];

/**
 * AWS::IAM::Group: the group and its policies. GroupName replaces; Path updates in place.
 * A group whose policies fail is deleted again; one that cannot be is reported made.
 */
export class GroupProvider extends IamEntityProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const client = await iamClient(context);
    const GroupName = nameFor(TYPE, p.GroupName, context, request);
    const token = request.idempotencyToken;
    const earlier = this.made.get(token);
    const group = (await createOrAdopt(
      async () =>
        (
          await (
            await iamClient(context, SINGLE_ATTEMPT)
          ).send(new CreateGroupCommand({ GroupName, Path: p.Path as string | undefined }), {
            abortSignal: context.signal,
          })
        ).Group,
      findEarlier(() => getGroup(client, GroupName, context.signal), earlier, groupIdentity),
      mayAdopt(p.GroupName, request, earlier, GroupName),
    ))!;
    const made = { physicalId: GroupName, creationIdentity: groupIdentity(group) };
    await this.completeCreate(request, context, made, async () => {
      await syncPolicies(principalApi(client, 'Group', context.signal), GroupName, {}, p);
    });
    return {
      physicalId: GroupName,
      attributes: { Arn: group.Arn },
      creationIdentity: made.creationIdentity,
      observed: observedOf(group),
    };
  }

  /** The group a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const name = generatedName(TYPE, request.properties.GroupName, context, request);
    if (name === undefined) return 'unknown';
    return (await getGroup(await iamClient(context), name, context.signal)) ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = request.previousProperties;
    const after = request.properties;
    const GroupName = request.physicalId;
    const client = await iamClient(context);
    if (changed(before, after, 'Path')) {
      await client.send(
        new UpdateGroupCommand({ GroupName, NewPath: (after.Path as string | undefined) ?? '/' }),
        {
          abortSignal: context.signal,
        },
      );
    }
    await syncPolicies(principalApi(client, 'Group', context.signal), GroupName, before, after);
    const group = await getGroup(client, GroupName, context.signal);
    if (!group)
      throw new Error(`Group ${GroupName} disappeared during its update; deploy again to re-create it.`);
    return { physicalId: GroupName, attributes: { Arn: group.Arn }, observed: observedOf(group) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await iamClient(context);
    try {
      await clearPolicies(principalApi(client, 'Group', context.signal), request.physicalId);
      // DeleteGroup refuses while the group has members; a user's Groups or a
      // UserToGroupAddition of the stack adds them back (spec 002).
      await removeMembers(client, request.physicalId, context.signal);
      await client.send(new DeleteGroupCommand({ GroupName: request.physicalId }), {
        abortSignal: context.signal,
      });
    } catch (error) {
      if (!isNoSuchEntity(error)) throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await iamClient(context);
    const group = await getGroup(client, request.physicalId, context.signal);
    if (!group) return undefined;
    try {
      const policies = await readPolicies(principalApi(client, 'Group', context.signal), group.GroupName!);
      return {
        properties: {
          ...observedOf(group),
          ...(policies.Policies.length > 0 ? { Policies: policies.Policies } : {}),
          ...(policies.ManagedPolicyArns.length > 0 ? { ManagedPolicyArns: policies.ManagedPolicyArns } : {}),
        },
        attributes: { Arn: group.Arn },
        creationIdentity: groupIdentity(group),
      };
    } catch (error) {
      if (isNoSuchEntity(error)) return undefined;
      throw error;
    }
  }
}

/** The group as CreateGroup (or an update's GetGroup) answers it; policy calls answer nothing. */
function observedOf(group: Group): JsonObject {
  return { GroupName: group.GroupName, Path: group.Path };
}

function groupIdentity(group: Group): CreationIdentity {
  return { Arn: group.Arn!, GroupId: group.GroupId!, CreateDate: group.CreateDate!.toISOString() };
}

async function getGroup(
  client: IAMClient,
  GroupName: string,
  signal?: AbortSignal,
): Promise<Group | undefined> {
  try {
    return (await client.send(new GetGroupCommand({ GroupName }), { abortSignal: signal })).Group;
  } catch (error) {
    if (isNoSuchEntity(error)) return undefined;
    throw error;
  }
}

/** Removes every member of the group, so DeleteGroup is not refused. */
async function removeMembers(client: IAMClient, GroupName: string, signal?: AbortSignal): Promise<void> {
  const o = { abortSignal: signal };
  let Marker: string | undefined;
  do {
    const page = await client.send(new GetGroupCommand({ GroupName, Marker }), o);
    for (const user of page.Users ?? [])
      await ignoreGone(
        client.send(new RemoveUserFromGroupCommand({ GroupName, UserName: user.UserName }), o),
      );
    Marker = page.IsTruncated ? page.Marker : undefined;
  } while (Marker);
}

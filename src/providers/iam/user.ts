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
  type IAMClient,
  type User,
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
  mayAdopt,
  iamClient,
  isNoSuchEntity,
  generatedName,
  nameFor,
  stringList,
} from './common.js';

import { setDiff, tagDiff, tagsOf } from './diff.js';
import { collect, principalApi } from './principal-api.js';
import { clearPolicies, ignoreGone, readPolicies, syncPolicies } from './principal-policies.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type { ProviderDescription } from '../skeleton.js';
import { IamEntityProvider } from './entity-provider.js';

const TYPE = 'AWS::IAM::User';
/** LoginProfile (a console password) is left to Cloud Control. */
const COVERED = [
  'Groups',
  'ManagedPolicyArns',
  'Path',
  'PermissionsBoundary',
  'Policies',
  'Tags',
  'UserName',
];

/**
 * AWS::IAM::User: the user, its policies, groups, tags and boundary. UserName replaces.
 * A user whose policies or groups fail is deleted again; one that cannot be is reported made.
 */
export class UserProvider extends IamEntityProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const client = await iamClient(context);
    const UserName = nameFor(TYPE, p.UserName, context, request);
    const tags = tagsOf(p.Tags);
    const token = request.idempotencyToken;
    const earlier = this.made.get(token);
    const user = (await createOrAdopt(
      async () =>
        (
          await (
            await iamClient(context, SINGLE_ATTEMPT)
          ).send(
            new CreateUserCommand({
              UserName,
              Path: p.Path as string | undefined,
              PermissionsBoundary: p.PermissionsBoundary as string | undefined,
              Tags: tags.length > 0 ? tags : undefined,
            }),
            { abortSignal: context.signal },
          )
        ).User,
      findEarlier(() => getUser(client, UserName, context.signal), earlier, userIdentity),
      mayAdopt(p.UserName, request, earlier, UserName),
    ))!;
    const made = { physicalId: UserName, creationIdentity: userIdentity(user) };
    await this.completeCreate(request, context, made, async () => {
      await syncPolicies(principalApi(client, 'User', context.signal), UserName, {}, p);
      await syncGroups(client, UserName, [], stringList(p.Groups), context.signal);
    });
    return {
      physicalId: UserName,
      attributes: { Arn: user.Arn },
      creationIdentity: made.creationIdentity,
      observed: observedOf(user),
    };
  }

  /** The user a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const name = generatedName(TYPE, request.properties.UserName, context, request);
    if (name === undefined) return 'unknown';
    return (await getUser(await iamClient(context), name, context.signal)) ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = request.previousProperties;
    const after = request.properties;
    const UserName = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    if (changed(before, after, 'Path')) {
      await client.send(
        new UpdateUserCommand({ UserName, NewPath: (after.Path as string | undefined) ?? '/' }),
        o,
      );
    }
    if (changed(before, after, 'PermissionsBoundary')) {
      const boundary = after.PermissionsBoundary as string | undefined;
      if (boundary === undefined)
        await client.send(new DeleteUserPermissionsBoundaryCommand({ UserName }), o);
      else
        await client.send(
          new PutUserPermissionsBoundaryCommand({ UserName, PermissionsBoundary: boundary }),
          o,
        );
    }
    const tags = tagDiff(tagsOf(before.Tags), tagsOf(after.Tags));
    if (tags.set.length > 0) await client.send(new TagUserCommand({ UserName, Tags: tags.set }), o);
    if (tags.remove.length > 0)
      await client.send(new UntagUserCommand({ UserName, TagKeys: tags.remove }), o);
    await syncPolicies(principalApi(client, 'User', context.signal), UserName, before, after);
    await syncGroups(client, UserName, stringList(before.Groups), stringList(after.Groups), context.signal);
    const user = await getUser(client, UserName, context.signal);
    if (!user)
      throw new Error(`User ${UserName} disappeared during its update; deploy again to re-create it.`);
    return { physicalId: UserName, attributes: { Arn: user.Arn }, observed: observedOf(user) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const UserName = request.physicalId;
    const client = await iamClient(context);
    try {
      await clearPolicies(principalApi(client, 'User', context.signal), UserName);
      await syncGroups(
        client,
        UserName,
        await groupsOf(client, UserName, context.signal),
        [],
        context.signal,
      );
      await client.send(new DeleteUserCommand({ UserName }), { abortSignal: context.signal });
    } catch (error) {
      if (!isNoSuchEntity(error)) throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await iamClient(context);
    const user = await getUser(client, request.physicalId, context.signal);
    if (!user) return undefined;
    try {
      const policies = await readPolicies(principalApi(client, 'User', context.signal), user.UserName!);
      const groups = await groupsOf(client, user.UserName!, context.signal);
      const properties: JsonObject = {
        ...observedOf(user),
        ...(policies.Policies.length > 0 ? { Policies: policies.Policies } : {}),
        ...(policies.ManagedPolicyArns.length > 0 ? { ManagedPolicyArns: policies.ManagedPolicyArns } : {}),
        ...(groups.length > 0 ? { Groups: groups } : {}),
      };
      return {
        properties,
        attributes: { Arn: user.Arn },
        creationIdentity: userIdentity(user),
      };
    } catch (error) {
      if (isNoSuchEntity(error)) return undefined;
      throw error;
    }
  }
}

async function syncGroups(
  client: IAMClient,
  UserName: string,
  before: string[],
  after: string[],
  signal?: AbortSignal,
): Promise<void> {
  const o = { abortSignal: signal };
  const groups = setDiff(before, after);
  for (const GroupName of groups.add)
    await client.send(new AddUserToGroupCommand({ GroupName, UserName }), o);
  for (const GroupName of groups.remove) {
    await ignoreGone(client.send(new RemoveUserFromGroupCommand({ GroupName, UserName }), o));
  }
}

function groupsOf(client: IAMClient, UserName: string, signal?: AbortSignal): Promise<string[]> {
  return collect(
    (Marker) => client.send(new ListGroupsForUserCommand({ UserName, Marker }), { abortSignal: signal }),
    (page) => (page.Groups ?? []).map((group) => group.GroupName!),
  );
}

/** The user as CreateUser (or an update's GetUser) answers it; policy and group calls answer nothing. */
function observedOf(user: User): JsonObject {
  return {
    UserName: user.UserName,
    Path: user.Path,
    ...(user.PermissionsBoundary?.PermissionsBoundaryArn
      ? { PermissionsBoundary: user.PermissionsBoundary.PermissionsBoundaryArn }
      : {}),
    ...(user.Tags && user.Tags.length > 0 ? { Tags: user.Tags } : {}),
  };
}

function userIdentity(user: User): CreationIdentity {
  return { Arn: user.Arn!, UserId: user.UserId!, CreateDate: user.CreateDate!.toISOString() };
}

async function getUser(client: IAMClient, UserName: string, signal?: AbortSignal): Promise<User | undefined> {
  try {
    return (await client.send(new GetUserCommand({ UserName }), { abortSignal: signal })).User;
  } catch (error) {
    if (isNoSuchEntity(error)) return undefined;
    throw error;
  }
}

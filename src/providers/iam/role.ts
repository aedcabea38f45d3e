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
  documentText,
  findEarlier,
  iamClient,
  integer,
  isNoSuchEntity,
  mayAdopt,
  generatedName,
  nameFor,
  parseDocument,
} from './common.js';
import { tagDiff, tagsOf } from './diff.js';

import { principalApi } from './principal-api.js';
import { clearPolicies, ignoreGone, readPolicies, syncPolicies } from './principal-policies.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { namedCreateToken, TOKEN_TAG } from '../physical-names.js';
import type { ProviderDescription } from '../skeleton.js';
import { IamEntityProvider } from './entity-provider.js';

const TYPE = 'AWS::IAM::Role';
const COVERED = [
  'AssumeRolePolicyDocument',
  'Description',
  'ManagedPolicyArns',
  'MaxSessionDuration',
  'Path',
  'PermissionsBoundary',
  'Policies',
  'RoleName',
  'Tags',
];
/** What IAM applies when MaxSessionDuration is not given (and restores when it is removed). */
const DEFAULT_SESSION_SECONDS = 3600;

/**
 * AWS::IAM::Role: CreateRole, then its inline and managed policies. RoleName and Path replace.
 * A role whose policies fail is deleted again; one that cannot be is reported made.
 */
export class RoleProvider extends IamEntityProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const roleName = nameFor(TYPE, p.RoleName, context, request);
    const tagged = namedCreateToken(p.RoleName, request);
    const tags = [...tagsOf(p.Tags), ...(tagged !== undefined ? [{ Key: TOKEN_TAG, Value: tagged }] : [])];
    const token = request.idempotencyToken;
    const earlier = this.made.get(token);
    const role = (await createOrAdopt(
      async () =>
        (
          await (
            await iamClient(context, SINGLE_ATTEMPT)
          ).send(
            new CreateRoleCommand({
              RoleName: roleName,
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
      findEarlier(() => getRole(client, roleName, context.signal), earlier, roleIdentity),
      mayAdopt(p.RoleName, request, earlier, roleName),
    ))!;
    const made = { physicalId: roleName, creationIdentity: roleIdentity(role) };
    const api = principalApi(client, 'Role', context.signal);
    await this.completeCreate(request, context, made, async () => {
      await syncPolicies(api, roleName, {}, p);
    });
    return {
      physicalId: roleName,
      attributes: roleAttributes(role),
      creationIdentity: made.creationIdentity,
      observed: observedOf(role),
    };
  }

  /**
   * The role a create with this token made: its generated name derives from the token; a name
   * the template gives counts only with the token tag CreateRole wrote with it.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const name = this.createName(request, context);
    const role = await getRole(await iamClient(context), name, context.signal);
    if (!role) return 'none';
    const proven =
      generatedName(TYPE, request.properties.RoleName, context, request) !== undefined ||
      role.Tags?.some((tag) => tag.Key === TOKEN_TAG && tag.Value === token) === true;
    return proven ? { physicalId: name } : 'none';
  }

  /** The name the template gives (prefixed where the setting says), else the one generated from the token. */
  createName(request: ResourceRequest, context: ProviderContext): string {
    return nameFor(TYPE, request.properties.RoleName, context, request);
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = request.previousProperties;
    const after = request.properties;
    const RoleName = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
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
    if (changed(before, after, 'PermissionsBoundary')) {
      const boundary = after.PermissionsBoundary as string | undefined;
      if (boundary === undefined) {
        await client.send(new DeleteRolePermissionsBoundaryCommand({ RoleName }), o);
      } else {
        await client.send(
          new PutRolePermissionsBoundaryCommand({ RoleName, PermissionsBoundary: boundary }),
          o,
        );
      }
    }
    const tags = tagDiff(tagsOf(before.Tags), tagsOf(after.Tags));
    if (tags.set.length > 0) await client.send(new TagRoleCommand({ RoleName, Tags: tags.set }), o);
    if (tags.remove.length > 0)
      await client.send(new UntagRoleCommand({ RoleName, TagKeys: tags.remove }), o);
    await syncPolicies(principalApi(client, 'Role', context.signal), RoleName, before, after);
    const role = await getRole(client, RoleName, context.signal);
    if (!role)
      throw new Error(`Role ${RoleName} disappeared during its update; deploy again to re-create it.`);
    return { physicalId: RoleName, attributes: roleAttributes(role), observed: observedOf(role) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await iamClient(context);
    try {
      // DeleteRole refuses (DeleteConflict) while policies are attached, as CloudFormation's handler knows.
      await clearPolicies(principalApi(client, 'Role', context.signal), request.physicalId);
      // Nor while an instance profile holds it; a profile of the stack adds it back (spec 002).
      await leaveInstanceProfiles(client, request.physicalId, context.signal);
      await ignoreGone(
        client.send(new DeleteRoleCommand({ RoleName: request.physicalId }), { abortSignal: context.signal }),
      );
    } catch (error) {
      if (!isNoSuchEntity(error)) throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await iamClient(context);
    const role = await getRole(client, request.physicalId, context.signal);
    if (!role) return undefined;
    let policies;
    try {
      policies = await readPolicies(principalApi(client, 'Role', context.signal), role.RoleName!);
    } catch (error) {
      if (isNoSuchEntity(error)) return undefined;
      throw error;
    }
    const properties: JsonObject = {
      ...observedOf(role),
      ...(policies.Policies.length > 0 ? { Policies: policies.Policies } : {}),
      ...(policies.ManagedPolicyArns.length > 0 ? { ManagedPolicyArns: policies.ManagedPolicyArns } : {}),
    };
    return {
      properties,
      attributes: roleAttributes(role),
      creationIdentity: roleIdentity(role),
    };
  }
}

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

function roleIdentity(role: Role): CreationIdentity {
  return { Arn: role.Arn!, RoleId: role.RoleId!, CreateDate: role.CreateDate!.toISOString() };
}

/** Fn::GetAtt Arn and RoleId (Ref is the role name, the physical id). */
export function roleAttributes(role: Role): JsonObject {
  return { Arn: role.Arn, RoleId: role.RoleId };
}

async function getRole(client: IAMClient, RoleName: string, signal?: AbortSignal): Promise<Role | undefined> {
  try {
    return (await client.send(new GetRoleCommand({ RoleName }), { abortSignal: signal })).Role;
  } catch (error) {
    if (isNoSuchEntity(error)) return undefined;
    throw error;
  }
}

/** Takes the role out of every instance profile holding it, so DeleteRole is not refused. */
async function leaveInstanceProfiles(
  client: IAMClient,
  RoleName: string,
  signal?: AbortSignal,
): Promise<void> {
  const o = { abortSignal: signal };
  let Marker: string | undefined;
  do {
    const page = await client.send(new ListInstanceProfilesForRoleCommand({ RoleName, Marker }), o);
    for (const profile of page.InstanceProfiles ?? []) {
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
    Marker = page.IsTruncated ? page.Marker : undefined;
  } while (Marker);
}

import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  RemoveRoleFromInstanceProfileCommand,
  type IAMClient,
  type InstanceProfile,
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
  createOrAdopt,
  findEarlier,
  iamClient,
  unlessNoSuchEntity,
  mayAdopt,
  generatedName,
  nameFor,
  stringList,
} from './common.js';

import { setDiff } from './diff.js';
import { ignoreGone } from './principal-policies.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type { ProviderDescription } from '../skeleton.js';
import { IamEntityProvider } from './entity-provider.js';

const TYPE = 'AWS::IAM::InstanceProfile';
const COVERED = ['InstanceProfileName', 'Path', 'Roles'];

/**
 * AWS::IAM::InstanceProfile: the profile and its (at most one) role. Name and path replace.
 * A profile whose role cannot be added is deleted again; one that cannot be is reported made.
 */
export class InstanceProfileProvider extends IamEntityProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const InstanceProfileName = nameFor(TYPE, p.InstanceProfileName, context, request);
    const token = request.idempotencyToken;
    const earlier = this.made.get(token);
    const profile = (await createOrAdopt(
      async () =>
        (
          await (
            await iamClient(context, SINGLE_ATTEMPT)
          ).send(
            new CreateInstanceProfileCommand({ InstanceProfileName, Path: p.Path as string | undefined }),
            o,
          )
        ).InstanceProfile,
      findEarlier(() => getProfile(client, InstanceProfileName, context.signal), earlier, profileIdentity),
      mayAdopt(p.InstanceProfileName, request, earlier, InstanceProfileName),
    ))!;
    const made = { physicalId: InstanceProfileName, creationIdentity: profileIdentity(profile) };
    // An adopted profile may hold its role already (an earlier attempt's undo stopped short).
    const present = new Set((profile.Roles ?? []).map((role) => role.RoleName));
    await this.completeCreate(request, context, made, async () => {
      for (const RoleName of stringList(p.Roles)) {
        if (present.has(RoleName)) continue;
        await client.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName, RoleName }), o);
      }
    });
    return {
      physicalId: InstanceProfileName,
      attributes: { Arn: profile.Arn },
      creationIdentity: made.creationIdentity,
      // CreateInstanceProfile answered before the roles were added (AddRole answers nothing).
      observed: { InstanceProfileName: profile.InstanceProfileName, Path: profile.Path },
    };
  }

  /** The instance profile a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const name = generatedName(TYPE, request.properties.InstanceProfileName, context, request);
    if (name === undefined) return 'unknown';
    return (await getProfile(await iamClient(context), name, context.signal)) ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const InstanceProfileName = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const roles = setDiff(stringList(request.previousProperties.Roles), stringList(request.properties.Roles));
    // A profile holds one role, so the old one leaves before the new one is added.
    for (const RoleName of roles.remove) {
      await ignoreGone(
        client.send(new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName, RoleName }), o),
      );
    }
    for (const RoleName of roles.add) {
      await client.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName, RoleName }), o);
    }
    const profile = await getProfile(client, InstanceProfileName, context.signal);
    if (!profile)
      throw new Error(`Instance profile ${InstanceProfileName} disappeared during its update; deploy again.`);
    return {
      physicalId: InstanceProfileName,
      attributes: { Arn: profile.Arn },
      observed: observedOf(profile),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const InstanceProfileName = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const profile = await getProfile(client, InstanceProfileName, context.signal);
    if (!profile) return;
    for (const role of profile.Roles ?? []) {
      await ignoreGone(
        client.send(
          new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName, RoleName: role.RoleName }),
          o,
        ),
      );
    }
    await ignoreGone(client.send(new DeleteInstanceProfileCommand({ InstanceProfileName }), o));
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const profile = await getProfile(await iamClient(context), request.physicalId, context.signal);
    if (!profile) return undefined;
    return {
      properties: observedOf(profile),
      attributes: { Arn: profile.Arn },
      creationIdentity: profileIdentity(profile),
    };
  }
}

/** The profile as GetInstanceProfile answers it, with its roles. */
function observedOf(profile: InstanceProfile): JsonObject {
  return {
    InstanceProfileName: profile.InstanceProfileName,
    Path: profile.Path,
    Roles: (profile.Roles ?? []).map((role) => role.RoleName!),
  };
}

function profileIdentity(profile: InstanceProfile): CreationIdentity {
  return {
    Arn: profile.Arn!,
    InstanceProfileId: profile.InstanceProfileId!,
    CreateDate: profile.CreateDate!.toISOString(),
  };
}

function getProfile(
  client: IAMClient,
  InstanceProfileName: string,
  signal?: AbortSignal,
): Promise<InstanceProfile | undefined> {
  return unlessNoSuchEntity(
    async () =>
      (await client.send(new GetInstanceProfileCommand({ InstanceProfileName }), { abortSignal: signal }))
        .InstanceProfile,
  );
}

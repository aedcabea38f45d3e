import {
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  DeletePolicyCommand,
  DeletePolicyVersionCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  ListEntitiesForPolicyCommand,
  ListPolicyVersionsCommand,
  type IAMClient,
  type Policy,
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
  isNoSuchEntity,
  unlessNoSuchEntity,
  mayAdopt,
  generatedName,
  nameFor,
  parseDocument,
  partitionOf,
  stringList,
} from './common.js';

import { setDiff } from './diff.js';
import { INLINE_POLICY_TARGETS as TARGETS } from '../../resource-types/index.js';
import { collect, principalApi } from './principal-api.js';
import { ignoreGone } from './principal-policies.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type { ProviderDescription } from '../skeleton.js';
import { IamEntityProvider } from './entity-provider.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';

const TYPE = 'AWS::IAM::ManagedPolicy';
const COVERED = ['Description', 'Groups', 'ManagedPolicyName', 'Path', 'PolicyDocument', 'Roles', 'Users'];
/** IAM keeps at most five versions of a managed policy. */
export const MAX_VERSIONS = 5;

/**
 * AWS::IAM::ManagedPolicy: CreatePolicy and attachments; a document change is a new
 * default version (the oldest other version goes first when five exist). Name, path and
 * description replace. The physical id, and Ref, is the policy ARN. A policy whose
 * attachments fail is deleted again; one that cannot be is reported made.
 */
export class ManagedPolicyProvider extends IamEntityProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const p = request.properties;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const PolicyName = nameFor(TYPE, p.ManagedPolicyName, context, request);
    const Path = pathOf(p);
    const token = request.idempotencyToken;
    const earlier = this.made.get(token);
    const expectedArn = policyArn(context, Path, PolicyName);
    const created = (await createOrAdopt(
      async () =>
        (
          await (
            await iamClient(context, SINGLE_ATTEMPT)
          ).send(
            new CreatePolicyCommand({
              PolicyName,
              Path,
              PolicyDocument: documentText(p.PolicyDocument),
              Description: p.Description as string | undefined,
            }),
            o,
          )
        ).Policy,
      findEarlier(() => getPolicy(client, expectedArn, context.signal), earlier, policyIdentity),
      mayAdopt(p.ManagedPolicyName, request, earlier, expectedArn),
    ))!;
    const arn = created.Arn!;
    const made = { physicalId: arn, creationIdentity: policyIdentity(created) };
    const policy = await this.completeCreate(request, context, made, async () => {
      await syncAttachments(client, arn, {}, p, context.signal);
      return (await getPolicy(client, arn, context.signal)) ?? created;
    });
    return {
      physicalId: arn,
      attributes: policyAttributes(policy),
      creationIdentity: made.creationIdentity,
      observed: observedOf(policy),
    };
  }

  /** The policy a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const p = request.properties;
    const name = generatedName(TYPE, p.ManagedPolicyName, context, request);
    if (name === undefined) return 'unknown';
    const found = await getPolicy(
      await iamClient(context),
      policyArn(context, pathOf(p), name),
      context.signal,
    );
    return found?.Arn ? { physicalId: found.Arn } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const before = request.previousProperties;
    const after = request.properties;
    const PolicyArn = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    if (changed(before, after, 'PolicyDocument')) {
      const versions = await collect(
        (Marker) => client.send(new ListPolicyVersionsCommand({ PolicyArn, Marker }), o),
        (page) => page.Versions,
      );
      const oldest = versionToDrop(versions);
      if (oldest !== undefined) {
        await client.send(new DeletePolicyVersionCommand({ PolicyArn, VersionId: oldest }), o);
      }
      await client.send(
        new CreatePolicyVersionCommand({
          PolicyArn,
          PolicyDocument: documentText(after.PolicyDocument),
          SetAsDefault: true,
        }),
        o,
      );
    }
    await syncAttachments(client, PolicyArn, before, after, context.signal);
    const policy = await getPolicy(client, PolicyArn, context.signal);
    if (!policy) throw new Error(`Managed policy ${PolicyArn} disappeared during its update; deploy again.`);
    return { physicalId: PolicyArn, attributes: policyAttributes(policy), observed: observedOf(policy) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const PolicyArn = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    await deleteTreatingNotFoundAsGone(async () => {
      await detachAll(client, PolicyArn, context.signal);
      const versions = await collect(
        (Marker) => client.send(new ListPolicyVersionsCommand({ PolicyArn, Marker }), o),
        (page) => page.Versions,
      );
      for (const version of versions.filter((v) => !v.IsDefaultVersion)) {
        await ignoreGone(
          client.send(new DeletePolicyVersionCommand({ PolicyArn, VersionId: version.VersionId }), o),
        );
      }
      await client.send(new DeletePolicyCommand({ PolicyArn }), o);
    }, isNoSuchEntity);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const PolicyArn = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const policy = await getPolicy(client, PolicyArn, context.signal);
    if (!policy) return undefined;
    return unlessNoSuchEntity(async () => {
      const { PolicyVersion: version } = await client.send(
        new GetPolicyVersionCommand({ PolicyArn, VersionId: policy.DefaultVersionId }),
        o,
      );
      const entities = await attachedEntities(client, PolicyArn, context.signal);
      const properties: JsonObject = {
        ...observedOf(policy),
        PolicyDocument: parseDocument(version?.Document),
      };
      for (const { property } of TARGETS) {
        if (entities[property].length > 0) properties[property] = entities[property];
      }
      return {
        properties,
        attributes: policyAttributes(policy),
        creationIdentity: policyIdentity(policy),
      };
    });
  }
}

/** The version to delete before creating one: the oldest non-default, once the limit is reached. */
export function versionToDrop(
  versions: ReadonlyArray<{ VersionId?: string; IsDefaultVersion?: boolean; CreateDate?: Date }>,
): string | undefined {
  if (versions.length < MAX_VERSIONS) return undefined;
  const others = versions.filter((v) => !v.IsDefaultVersion);
  others.sort(
    (a, b) =>
      (a.CreateDate?.getTime() ?? 0) - (b.CreateDate?.getTime() ?? 0) || versionNumber(a) - versionNumber(b),
  );
  return others[0]?.VersionId;
}

const versionNumber = (v: { VersionId?: string }) => Number((v.VersionId ?? 'v0').slice(1));

/**
 * The policy as GetPolicy answers it (which its attributes need); the document is only in
 * GetPolicyVersion, which a write does not call, and the attach calls answer nothing.
 */
function observedOf(policy: Policy): JsonObject {
  return {
    ManagedPolicyName: policy.PolicyName,
    Path: policy.Path,
    ...(policy.Description ? { Description: policy.Description } : {}),
  };
}

/** Every Fn::GetAtt attribute, from GetPolicy (dates as ISO 8601, as CloudFormation gives them). */
export function policyAttributes(policy: Policy): JsonObject {
  return {
    PolicyArn: policy.Arn,
    PolicyId: policy.PolicyId,
    AttachmentCount: policy.AttachmentCount,
    CreateDate: policy.CreateDate?.toISOString(),
    DefaultVersionId: policy.DefaultVersionId,
    IsAttachable: policy.IsAttachable,
    PermissionsBoundaryUsageCount: policy.PermissionsBoundaryUsageCount,
    UpdateDate: policy.UpdateDate?.toISOString(),
  };
}

async function syncAttachments(
  client: IAMClient,
  arn: string,
  before: JsonObject,
  after: JsonObject,
  signal?: AbortSignal,
): Promise<void> {
  const diffs = TARGETS.map(({ kind, property }) => ({
    api: principalApi(client, kind, signal),
    ...setDiff(stringList(before[property]), stringList(after[property])),
  }));
  for (const { api, add } of diffs) for (const name of add) await api.attach(name, arn);
  for (const { api, remove } of diffs) for (const name of remove) await ignoreGone(api.detach(name, arn));
}

async function attachedEntities(
  client: IAMClient,
  PolicyArn: string,
  signal?: AbortSignal,
): Promise<Record<'Roles' | 'Users' | 'Groups', string[]>> {
  const pages = await collect(
    (Marker) => client.send(new ListEntitiesForPolicyCommand({ PolicyArn, Marker }), { abortSignal: signal }),
    (page) => [page],
  );
  return {
    Roles: pages.flatMap((page) => (page.PolicyRoles ?? []).map((r) => r.RoleName!)),
    Users: pages.flatMap((page) => (page.PolicyUsers ?? []).map((u) => u.UserName!)),
    Groups: pages.flatMap((page) => (page.PolicyGroups ?? []).map((g) => g.GroupName!)),
  };
}

/** Detaches the policy from every entity IAM lists for it (DeletePolicy refuses otherwise). */
async function detachAll(client: IAMClient, arn: string, signal?: AbortSignal): Promise<void> {
  const entities = await attachedEntities(client, arn, signal);
  for (const { kind, property } of TARGETS) {
    const api = principalApi(client, kind, signal);
    for (const name of entities[property]) await ignoreGone(api.detach(name, arn));
  }
}

function pathOf(properties: JsonObject): string {
  return (properties.Path as string | undefined) ?? '/';
}

/** IAM reads a managed policy by ARN only; its path and name make it. */
function policyArn(context: ProviderContext, path: string, name: string): string {
  return `arn:${partitionOf(context.region)}:iam::${context.accountId}:policy${path}${name}`;
}

function policyIdentity(policy: Policy): CreationIdentity {
  return { Arn: policy.Arn!, PolicyId: policy.PolicyId!, CreateDate: policy.CreateDate!.toISOString() };
}

function getPolicy(client: IAMClient, PolicyArn: string, signal?: AbortSignal): Promise<Policy | undefined> {
  return unlessNoSuchEntity(
    async () => (await client.send(new GetPolicyCommand({ PolicyArn }), { abortSignal: signal })).Policy,
  );
}

import type { IAMClient } from '@aws-sdk/client-iam';
import type { PrincipalKind } from '../../resource-types/index.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { namedCreateToken, TOKEN_TAG } from '../physical-names.js';
import type { ProviderDescription } from '../skeleton.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import {
  changed,
  createOrAdopt,
  findEarlier,
  generatedName,
  iamClient,
  isNoSuchEntity,
  mayAdopt,
  nameFor,
  stringList,
  unlessNoSuchEntity,
} from './common.js';
import { setDiff, tagDiff, tagsOf, type Tag } from './diff.js';
import { IamEntityProvider } from './entity-provider.js';
import { principalApi } from './principal-api.js';
import { clearPolicies, ignoreGone, readPolicies, syncPolicies } from './principal-policies.js';

/** The options every IAM call of one provider operation carries. */
export interface CallOptions {
  abortSignal?: AbortSignal;
}

/** What the principal's create call is given: its name, the template's properties and the tags to write. */
export interface PrincipalCreateInput {
  name: string;
  properties: JsonObject;
  tags: Tag[];
}

/**
 * An IAM principal kind (role, user, group) as data: its calls and shapes, plus hooks for
 * what only some kinds have. `PrincipalProvider` turns one into a provider; the inline and
 * managed policies (`Policies`, `ManagedPolicyArns`) every principal has are handled there.
 */
export interface PrincipalDescription<Entity> extends ProviderDescription {
  kind: PrincipalKind;
  /** The property that names the principal (its physical id); a change replaces. */
  nameProperty: string;
  /** The create call; it answers the principal as made. */
  create(client: IAMClient, input: PrincipalCreateInput, o: CallOptions): Promise<Entity | undefined>;
  /** The get call; the provider reads NoSuchEntity as "not there". */
  get(client: IAMClient, name: string, o: CallOptions): Promise<Entity | undefined>;
  /** The calls for the principal's own properties that update in place (not policies, tags, boundary, memberships). */
  updateProperties(
    client: IAMClient,
    name: string,
    before: JsonObject,
    after: JsonObject,
    o: CallOptions,
  ): Promise<void>;
  delete(client: IAMClient, name: string, o: CallOptions): Promise<unknown>;
  /** Who the principal is, to tell it from a later one of the same name. */
  identity(entity: Entity): CreationIdentity;
  /** The properties the create (or get) answer shows. */
  observed(entity: Entity): JsonObject;
  /** Fn::GetAtt attributes (Ref is the name). */
  attributes(entity: Entity): JsonObject;
  /** `Tags`, set and removed key by key. */
  tags?: {
    tag(client: IAMClient, name: string, tags: Tag[], o: CallOptions): Promise<unknown>;
    untag(client: IAMClient, name: string, keys: string[], o: CallOptions): Promise<unknown>;
    /**
     * Present when a create under a name the template gives writes the token tag, so `locate`
     * can prove that create made the principal holding the name (and `createName` is known):
     * the principal's tags as its get call answers them.
     */
    provesCreate?(entity: Entity): Array<{ Key?: string; Value?: string }> | undefined;
  };
  /** `PermissionsBoundary`: put on a new ARN, deleted when the property goes. */
  boundary?: {
    put(client: IAMClient, name: string, arn: string, o: CallOptions): Promise<unknown>;
    remove(client: IAMClient, name: string, o: CallOptions): Promise<unknown>;
  };
  /** A list property of memberships the principal joins after it exists (a user's `Groups`). */
  memberships?: {
    property: string;
    list(client: IAMClient, name: string, o: CallOptions): Promise<string[]>;
    join(client: IAMClient, name: string, item: string, o: CallOptions): Promise<unknown>;
    leave(client: IAMClient, name: string, item: string, o: CallOptions): Promise<unknown>;
  };
  /** What must let go of the principal before its delete call is accepted (besides policies and memberships). */
  release?(client: IAMClient, name: string, o: CallOptions): Promise<void>;
}

/**
 * The provider of one IAM principal kind: create (adopting an earlier attempt's principal
 * where the name proves it), then policies and memberships; a principal whose children fail
 * is deleted again, one that cannot be is reported made. Updates go property group by
 * property group, additions before removals; deletes clear children first.
 */
export class PrincipalProvider<Entity> extends IamEntityProvider {
  /** The name a create sends, where the description's token tag makes it provable. */
  readonly createName?: (request: ResourceRequest, context: ProviderContext) => string;

  constructor(readonly description: PrincipalDescription<Entity>) {
    super();
    if (description.tags?.provesCreate) this.createName = (request, context) => this.nameOf(request, context);
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const d = this.description;
    const p = request.properties;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const name = this.nameOf(request, context);
    const earlier = this.made.get(request.idempotencyToken);
    const entity = (await createOrAdopt(
      async () =>
        d.create(
          await iamClient(context, SINGLE_ATTEMPT),
          { name, properties: p, tags: this.createTags(request) },
          o,
        ),
      findEarlier(
        () => this.get(client, name, o),
        earlier,
        (found) => d.identity(found),
      ),
      mayAdopt(p[d.nameProperty], request, earlier, name),
    ))!;
    const made = { physicalId: name, creationIdentity: d.identity(entity) };
    await this.completeCreate(request, context, made, async () => {
      await syncPolicies(principalApi(client, d.kind, context.signal), name, {}, p);
      await this.syncMemberships(client, name, {}, p, o);
    });
    return {
      physicalId: name,
      attributes: d.attributes(entity),
      creationIdentity: made.creationIdentity,
      observed: d.observed(entity),
    };
  }

  /**
   * The principal a create with this token made: a generated name derives from the token; a
   * name the template gives counts only with the token tag the create wrote with it.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const given = request.properties[this.description.nameProperty];
    const generated = generatedName(this.description.type, given, context, request);
    const tagsOfEntity = this.description.tags?.provesCreate;
    const o = { abortSignal: context.signal };
    if (!tagsOfEntity) {
      if (generated === undefined) return 'unknown';
      return (await this.get(await iamClient(context), generated, o)) ? { physicalId: generated } : 'none';
    }
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const name = this.nameOf(request, context);
    const entity = await this.get(await iamClient(context), name, o);
    if (!entity) return 'none';
    const proven =
      generated !== undefined ||
      tagsOfEntity(entity)?.some((tag) => tag.Key === TOKEN_TAG && tag.Value === token) === true;
    return proven ? { physicalId: name } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const d = this.description;
    const before = request.previousProperties;
    const after = request.properties;
    const name = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    await d.updateProperties(client, name, before, after, o);
    if (d.boundary && changed(before, after, 'PermissionsBoundary')) {
      const boundary = after.PermissionsBoundary as string | undefined;
      if (boundary === undefined) await d.boundary.remove(client, name, o);
      else await d.boundary.put(client, name, boundary, o);
    }
    if (d.tags) {
      const tags = tagDiff(tagsOf(before.Tags), tagsOf(after.Tags));
      if (tags.set.length > 0) await d.tags.tag(client, name, tags.set, o);
      if (tags.remove.length > 0) await d.tags.untag(client, name, tags.remove, o);
    }
    await syncPolicies(principalApi(client, d.kind, context.signal), name, before, after);
    await this.syncMemberships(client, name, before, after, o);
    const entity = await this.get(client, name, o);
    if (!entity)
      throw new Error(`${d.kind} ${name} disappeared during its update; deploy again to re-create it.`);
    return { physicalId: name, attributes: d.attributes(entity), observed: d.observed(entity) };
  }

  /** The delete call refuses (DeleteConflict) while policies, memberships or holders remain, so they go first. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const d = this.description;
    const name = request.physicalId;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    await deleteTreatingNotFoundAsGone(async () => {
      await clearPolicies(principalApi(client, d.kind, context.signal), name);
      if (d.memberships) {
        for (const item of await d.memberships.list(client, name, o))
          await ignoreGone(d.memberships.leave(client, name, item, o));
      }
      await d.release?.(client, name, o);
      await d.delete(client, name, o);
    }, isNoSuchEntity);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const d = this.description;
    const client = await iamClient(context);
    const o = { abortSignal: context.signal };
    const entity = await this.get(client, request.physicalId, o);
    if (!entity) return undefined;
    const name = request.physicalId;
    const properties = await unlessNoSuchEntity(async (): Promise<JsonObject> => {
      const policies = await readPolicies(principalApi(client, d.kind, context.signal), name);
      const memberships = d.memberships ? await d.memberships.list(client, name, o) : [];
      return {
        ...d.observed(entity),
        ...(policies.Policies.length > 0 ? { Policies: policies.Policies } : {}),
        ...(policies.ManagedPolicyArns.length > 0 ? { ManagedPolicyArns: policies.ManagedPolicyArns } : {}),
        ...(memberships.length > 0 ? { [d.memberships!.property]: memberships } : {}),
      };
    });
    if (!properties) return undefined;
    return { properties, attributes: d.attributes(entity), creationIdentity: d.identity(entity) };
  }

  /** The name the template gives (prefixed where the setting says), else the one generated from the token. */
  private nameOf(request: ResourceRequest, context: ProviderContext): string {
    return nameFor(
      this.description.type,
      request.properties[this.description.nameProperty],
      context,
      request,
    );
  }

  private createTags(request: ResourceRequest): Tag[] {
    if (!this.description.tags) return [];
    const tags = tagsOf(request.properties.Tags);
    if (!this.description.tags.provesCreate) return tags;
    const token = namedCreateToken(request.properties[this.description.nameProperty], request);
    return token !== undefined ? [...tags, { Key: TOKEN_TAG, Value: token }] : tags;
  }

  private get(client: IAMClient, name: string, o: CallOptions): Promise<Entity | undefined> {
    return unlessNoSuchEntity(() => this.description.get(client, name, o));
  }

  private async syncMemberships(
    client: IAMClient,
    name: string,
    before: JsonObject,
    after: JsonObject,
    o: CallOptions,
  ): Promise<void> {
    const m = this.description.memberships;
    if (!m) return;
    const diff = setDiff(stringList(before[m.property]), stringList(after[m.property]));
    for (const item of diff.add) await m.join(client, name, item, o);
    for (const item of diff.remove) await ignoreGone(m.leave(client, name, item, o));
  }
}

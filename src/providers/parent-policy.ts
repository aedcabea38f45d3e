import { httpStatusOf } from '../aws/error-class.js';
import { tokenPhysicalName } from './physical-names.js';
import { samePolicy } from './policy-compare/equivalent-policies.js';
import { jsonText, stringList } from './property-values.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteReport,
  DeleteRequest,
  MadeDelete,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from './provider.js';
import { MadeByAttempts } from './resource-made.js';
import { SdkProvider, type ProviderDescription } from './skeleton.js';

/** How one service keeps a resource policy on its parents (a queue's or a topic's `Policy`). */
export interface ParentPolicyAccess {
  type: string;
  /** The property naming the parents: `Queues`, `Topics`. */
  parentsProperty: string;
  attributesOf(physicalId: string): JsonObject;
  write(parent: string, policy: string, context: ProviderContext): Promise<void>;
  /** Takes the policy off a parent; a parent already gone has nothing to remove. */
  remove(parent: string, context: ProviderContext): Promise<void>;
  /** The parent's policy as the service returns it (its own default included); undefined when none or gone. */
  read(parent: string, context: ProviderContext): Promise<string | undefined>;
  /** The policy the service itself keeps on a parent holding none of ours (SNS's default topic policy). */
  servicePolicy?(parent: string, context: ProviderContext): string;
}

/**
 * The creation identity field naming the parents a failed create wrote, as JSON text: the
 * journal's made record keeps the identity as the provider gave it, while its properties
 * name every parent the create attempted.
 */
const WRITTEN_TO = 'writtenTo';

/**
 * A policy resource written onto each of its parents (AWS::SQS::QueuePolicy,
 * AWS::SNS::TopicPolicy). It has no AWS identity of its own, so its physical id is a
 * generated name, and every change applies in place: spec 002, "a policy that names
 * several parents is written again in place", which is also how a re-created parent
 * gets its policy back. A create that wrote some parents and then failed reports them
 * made, and that made resource is undone only where it still holds (spec 000).
 */
export class ParentPolicyProvider extends SdkProvider {
  readonly description: ProviderDescription;
  private readonly attempts = new MadeByAttempts();

  constructor(private readonly access: ParentPolicyAccess) {
    super();
    this.description = {
      type: access.type,
      covered: ['PolicyDocument', access.parentsProperty],
      replaces: [],
    };
  }

  /**
   * The made record names exactly the parents written, by this attempt or an earlier one of
   * the same create, plus one whose write failed without a service answer (it may have applied).
   */
  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const token = request.idempotencyToken;
    const earlier = this.attempts.get(token);
    const id = earlier?.physicalId ?? tokenPhysicalName(context.stackName, request, { maxLength: 255 });
    const written = new Set(writtenTo(earlier?.creationIdentity));
    const policy = jsonText(request.properties.PolicyDocument);
    for (const parent of this.parents(request.properties)) {
      try {
        await this.access.write(parent, policy, context);
      } catch (error) {
        const status = httpStatusOf(error);
        if (status === undefined || status >= 500) written.add(parent);
        if (written.size === 0) throw error;
        const creationIdentity = { [WRITTEN_TO]: JSON.stringify([...written]) };
        throw this.attempts.failed(token, { physicalId: id, creationIdentity }, error);
      }
      written.add(parent);
    }
    this.attempts.forget(token);
    // Setting a queue's or topic's Policy attribute answers nothing to observe.
    return { physicalId: id, attributes: this.access.attributesOf(id) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.write(request.properties, this.parents(request.previousProperties), context);
    return { physicalId: request.physicalId, attributes: this.access.attributesOf(request.physicalId) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    for (const parent of this.parents(request.properties)) await this.access.remove(parent, context);
  }

  /** The policy as the first parent that still holds one has it; undefined when none does. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const holders: string[] = [];
    let document: unknown;
    for (const parent of this.parents(request.properties)) {
      const policy = await this.access.read(parent, context);
      if (policy === undefined || this.isServicePolicy(parent, policy, context)) continue;
      holders.push(parent);
      document ??= JSON.parse(policy);
    }
    if (holders.length === 0) return undefined;
    return {
      properties: { PolicyDocument: document, [this.access.parentsProperty]: holders },
      attributes: this.access.attributesOf(request.physicalId),
    };
  }

  /** Sets the policy on every named parent, and removes it from parents no longer named. */
  private async write(properties: JsonObject, previous: string[], context: ProviderContext): Promise<void> {
    const parents = this.parents(properties);
    const policy = jsonText(properties.PolicyDocument);
    for (const parent of parents) await this.access.write(parent, policy, context);
    for (const parent of previous.filter((p) => !parents.includes(p)))
      await this.access.remove(parent, context);
  }

  /**
   * What a failed create made: each parent it wrote is cleared only while its policy still
   * matches the attempted document; the rest are reported, as are parents this deploy's own
   * policies just wrote (the service may still return the old policy for a while).
   */
  async deleteMade(
    request: DeleteRequest,
    made: MadeDelete,
    context: ProviderContext,
  ): Promise<DeleteReport> {
    const recorded = writtenTo(made.creationIdentity);
    const parents = recorded.length > 0 ? recorded : this.parents(request.properties);
    const attempted = await made.attempted();
    const document = 'properties' in attempted ? attempted.properties.PolicyDocument : undefined;
    if (document === undefined) {
      const reason = 'unusable' in attempted ? attempted.unusable : 'the journal holds no attempted document';
      return { left: parents.map((target) => ({ target, reason })) };
    }
    const left: DeleteReport['left'] = [];
    const justWritten = new Set((made.appliedByThisDeploy ?? []).flatMap((applied) => this.parents(applied)));
    for (const parent of parents) {
      if (justWritten.has(parent)) {
        left.push({ target: parent, reason: 'a policy this deploy wrote is on it now' });
        continue;
      }
      const live = await this.access.read(parent, context);
      if (live !== undefined && this.isServicePolicy(parent, live, context)) continue;
      if (live === undefined || samePolicy(live, document)) await this.access.remove(parent, context);
      else left.push({ target: parent, reason: 'its policy was replaced by a different one' });
    }
    return { left };
  }

  private isServicePolicy(parent: string, policy: string, context: ProviderContext): boolean {
    const own = this.access.servicePolicy?.(parent, context);
    return own !== undefined && samePolicy(policy, own);
  }

  private parents(properties: JsonObject): string[] {
    return stringList(properties[this.access.parentsProperty]);
  }
}

function writtenTo(identity: CreationIdentity | undefined): string[] {
  const text = identity?.[WRITTEN_TO];
  if (typeof text !== 'string') return [];
  try {
    return stringList(JSON.parse(text));
  } catch {
    return [];
  }
}

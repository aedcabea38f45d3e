import { tokenPhysicalName } from './physical-names.js';
import { jsonText, stringList, uncovered } from './property-values.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from './provider.js';

/** How one service keeps a resource policy on its parents (a queue's or a topic's `Policy`). */
export interface ParentPolicyAccess {
  type: string;
  /** The property naming the parents: `Queues`, `Topics`. */
  parentsProperty: string;
  attributesOf(physicalId: string): JsonObject;
  write(parent: string, policy: string, context: ProviderContext): Promise<void>;
  /** Takes the policy off a parent; a parent already gone has nothing to remove. */
  remove(parent: string, context: ProviderContext): Promise<void>;
  /** The parent's own policy, or undefined when it holds none (or is gone). */
  read(parent: string, context: ProviderContext): Promise<string | undefined>;
}

/**
 * A policy resource written onto each of its parents (AWS::SQS::QueuePolicy,
 * AWS::SNS::TopicPolicy). It has no AWS identity of its own, so its physical id is a
 * generated name, and every change applies in place: spec 002, "a policy that names
 * several parents is written again in place", which is also how a re-created parent
 * gets its policy back.
 */
export class ParentPolicyProvider implements Provider {
  readonly kind = 'sdk' as const;

  constructor(private readonly access: ParentPolicyAccess) {}

  handles(type: string): boolean {
    return type === this.access.type;
  }

  canUpdateInPlace(): boolean {
    return true;
  }

  uncoveredProperties(_type: string, properties: JsonObject): string[] {
    return uncovered(properties, ['PolicyDocument', this.access.parentsProperty]);
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const id = tokenPhysicalName(context.stackName, request, { maxLength: 255 });
    await this.write(request.properties, [], context);
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
      if (policy === undefined) continue;
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

  private parents(properties: JsonObject): string[] {
    return stringList(properties[this.access.parentsProperty]);
  }
}

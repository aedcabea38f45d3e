import type { LambdaClient } from '@aws-sdk/client-lambda';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { isNotFound, lambdaClient, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';

type Send = { abortSignal?: AbortSignal };

/**
 * A Lambda child (alias, function URL, event-invoke config ...) as data: one call creates it,
 * one updates it, one deletes it and one reads it, and each call's answer `A` is the child's
 * configuration, from which its attributes (the Ref/GetAtt row of its type) and read-back come.
 */
export interface LambdaChildDescription<A extends object> extends ProviderDescription {
  create(client: LambdaClient, properties: JsonObject, options: Send): Promise<A>;
  /**
   * `single`: the create call carries no idempotency token, so it is sent once (spec 003,
   * "Ambiguous creates"); `retried`: it overwrites whatever it finds, so a retry is harmless.
   */
  createAttempts: 'single' | 'retried';
  update(client: LambdaClient, properties: JsonObject, options: Send): Promise<A>;
  delete(client: LambdaClient, request: DeleteRequest, options: Send): Promise<unknown>;
  /** Rejects with Lambda's not-found when the child (or its function) is gone. */
  get(client: LambdaClient, request: DeleteRequest, options: Send): Promise<A>;
  physicalId(answer: A, properties: JsonObject): string;
  /** The child's settings as the calls answer them, in template terms. */
  observed(answer: A): JsonObject;
  /** The recorded properties a read keeps because the get does not answer them (the function it belongs to). */
  readKeeps(properties: JsonObject): JsonObject;
  /** The creation identity a create records, and whether a read answers it too. */
  identity?: { of(answer: A): CreationIdentity; onRead: boolean };
  /**
   * For a child whose create overwrites whatever already holds its id: that id, which the
   * create looks up first (`nameHolder`) so a taken one is refused rather than taken over.
   */
  takenId?(properties: JsonObject): string;
}

/** The provider of every Lambda child type: each type supplies a description, not a class. */
export class LambdaChildProvider<A extends object> extends SdkProvider {
  readonly nameHolder?: (request: ResourceRequest, context: ProviderContext) => Promise<NameLookup>;

  constructor(readonly description: LambdaChildDescription<A>) {
    super();
    const takenId = description.takenId;
    if (takenId) {
      this.nameHolder = async (request, context) => {
        const name = takenId(request.properties);
        const live = await this.read({ ...request, physicalId: name }, context);
        return { name, ...(live ? { holder: name } : {}) };
      };
    }
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { description } = this;
    const client = await lambdaClient(context, description.createAttempts === 'single' ? SINGLE_ATTEMPT : {});
    const created = await description.create(client, request.properties, { abortSignal: context.signal });
    return {
      physicalId: description.physicalId(created, request.properties),
      attributes: attributesFor(description.type, created),
      ...(description.identity ? { creationIdentity: description.identity.of(created) } : {}),
      observed: description.observed(created),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await lambdaClient(context);
    const updated = await this.description.update(client, request.properties, {
      abortSignal: context.signal,
    });
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(this.description.type, updated),
      observed: this.description.observed(updated),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) => this.description.delete(client, request, options));
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const { description } = this;
    const client = await lambdaClient(context);
    let live: A;
    try {
      live = await description.get(client, request, { abortSignal: context.signal });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    return {
      properties: { ...description.readKeeps(request.properties), ...description.observed(live) },
      attributes: attributesFor(description.type, live),
      ...(description.identity?.onRead ? { creationIdentity: description.identity.of(live) } : {}),
    };
  }
}

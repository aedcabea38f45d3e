import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { apiGatewayV2, changed, NOT_FOUND, sent, typed } from './common.js';
import type { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';

/** One part of an HTTP API (a route, an integration, a stage): its calls and names. */
export interface PartSpec {
  type: string;
  /** The top-level properties sent; ApiId among them. */
  covered: readonly string[];
  /** The member naming the part in its API: Ref and the physical id. */
  idProperty: string;
  /** A member no two parts of one API share (a route key, a stage name): what `locate` looks for. */
  uniqueKey?: string;
  booleans?: readonly string[];
  numbers?: readonly string[];
  /** What a dropped property goes back to, where the service's default is not an empty value. */
  defaults?: JsonObject;
  /** Members the update call does not take (sent by their own calls: a stage's tags). */
  notUpdated?: readonly string[];
  create(client: ApiGatewayV2Client, input: JsonObject, signal?: AbortSignal): Promise<JsonObject>;
  update(
    client: ApiGatewayV2Client,
    apiId: string,
    id: string,
    changes: JsonObject,
    signal?: AbortSignal,
  ): Promise<JsonObject>;
  delete(client: ApiGatewayV2Client, apiId: string, id: string, signal?: AbortSignal): Promise<unknown>;
  get(client: ApiGatewayV2Client, apiId: string, id: string, signal?: AbortSignal): Promise<JsonObject>;
  list(client: ApiGatewayV2Client, apiId: string, signal?: AbortSignal): Promise<JsonObject[]>;
  /** After the update call: what else changed (a stage's tags). */
  afterUpdate?(client: ApiGatewayV2Client, request: UpdateRequest, context: ProviderContext): Promise<void>;
}

/**
 * An HTTP API part through its Create/Update/Delete/Get calls. Physical id and Ref: the
 * part's id in its API (RouteId, IntegrationId, StageName), the API from ApiId. Deleting an
 * API deletes its parts, so a part whose API is gone is deleted too.
 */
export class HttpApiPartProvider extends SdkProvider {
  readonly description: ProviderDescription;

  constructor(private readonly spec: PartSpec) {
    super();
    this.description = { type: spec.type, covered: spec.covered };
  }

  private input(properties: JsonObject, names: readonly string[]): JsonObject {
    return typed(sent(properties, names), this.spec.booleans ?? [], this.spec.numbers ?? []);
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await apiGatewayV2(context, SINGLE_ATTEMPT);
    const made = await this.spec.create(
      client,
      this.input(request.properties, this.spec.covered),
      context.signal,
    );
    const id = String(made[this.spec.idProperty]);
    return { physicalId: id, attributes: { [this.spec.idProperty]: id } };
  }

  /**
   * What a create whose answer was lost made, where the part has a key no other part of its API
   * may hold (CreateRoute and CreateStage refuse a taken one, so the holder is that create's).
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const key = this.spec.uniqueKey;
    if (!key || !request.idempotencyToken) return 'unknown';
    const client = await apiGatewayV2(context);
    let parts: JsonObject[];
    try {
      parts = await this.spec.list(client, String(request.properties.ApiId), context.signal);
    } catch (error) {
      if (awsErrorCode(error) === NOT_FOUND) return 'none';
      throw error;
    }
    const found = parts.find((part) => part[key] === request.properties[key]);
    return found ? { physicalId: String(found[this.spec.idProperty]) } : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await apiGatewayV2(context);
    const apiId = String(request.properties.ApiId);
    const names = this.spec.covered.filter(
      (name) =>
        name !== 'ApiId' && name !== this.spec.idProperty && !(this.spec.notUpdated ?? []).includes(name),
    );
    const changes = typed(
      changed(request.previousProperties, request.properties, names, this.spec.defaults),
      this.spec.booleans ?? [],
      this.spec.numbers ?? [],
    );
    if (Object.keys(changes).length > 0) {
      await this.spec.update(client, apiId, request.physicalId, changes, context.signal);
    }
    await this.spec.afterUpdate?.(client, request, context);
    return { physicalId: request.physicalId, attributes: { [this.spec.idProperty]: request.physicalId } };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await apiGatewayV2(context);
    await deleteTreatingNotFoundAsGone(
      () => this.spec.delete(client, String(request.properties.ApiId), request.physicalId, context.signal),
      errorCodeIn(NOT_FOUND),
    );
  }

  /** The part as its Get call answers, in template terms (its own id left out). */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await apiGatewayV2(context);
    const apiId = String(request.properties.ApiId);
    let live: JsonObject;
    try {
      live = await this.spec.get(client, apiId, request.physicalId, context.signal);
    } catch (error) {
      if (awsErrorCode(error) === NOT_FOUND) return undefined;
      throw error;
    }
    const properties: JsonObject = { ApiId: apiId };
    for (const name of this.spec.covered) {
      if (live[name] !== undefined && name !== 'ApiId') properties[name] = live[name];
    }
    return { properties, attributes: { [this.spec.idProperty]: request.physicalId } };
  }
}

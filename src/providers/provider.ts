import type { AwsClients } from '../aws/client-factory.js';

/** Which provider family made a resource; recorded per resource as `provisionedBy` and sticky. */
export type ProviderKind = 'sdk' | 'cc-api';

export type JsonObject = Record<string, unknown>;

/** What proves later that a live resource is still the one cdkd made (ARN + creation time, TableId, ...). */
export type CreationIdentity = Record<string, string | number | boolean>;

export interface ProviderContext {
  clients: AwsClients;
  accountId: string;
  region: string;
  stackName: string;
  signal?: AbortSignal;
}

export interface ResourceRequest {
  logicalId: string;
  type: string;
  /** Resolved properties, dynamic references resolved, NoEcho values in clear. */
  properties: JsonObject;
  /**
   * Stable across every attempt of one logical create (the engine makes one per create
   * and reuses it on each retry), so a replayed create after a lost response is refused
   * or answered with the first attempt's result instead of making a second resource.
   * Providers pass it to the service's idempotency key (Cloud Control's ClientToken,
   * CloudFront's CallerReference). Absent, a provider makes one per call.
   */
  idempotencyToken?: string;
}

export interface CreateResult {
  physicalId: string;
  attributes: JsonObject;
  /** What `Ref` returns, only where it differs from `physicalId`. */
  ref?: string;
  creationIdentity?: CreationIdentity;
}

export interface UpdateRequest extends ResourceRequest {
  physicalId: string;
  previousProperties: JsonObject;
}

export interface UpdateResult {
  /** Some updates change the physical id in place (rare); most keep it. */
  physicalId: string;
  attributes: JsonObject;
  /** What `Ref` returns, only where it differs from `physicalId`. */
  ref?: string;
}

export interface DeleteRequest {
  logicalId: string;
  type: string;
  physicalId: string;
  properties: JsonObject;
}

export interface LiveResource {
  properties: JsonObject;
  attributes: JsonObject;
  creationIdentity?: CreationIdentity;
}

/**
 * A small protocol, as in Terraform: apply a change, read, and say which
 * changes can be applied in place. A provider knows nothing about plans.
 */
export interface Provider {
  readonly kind: ProviderKind;
  handles(type: string): boolean;
  /** False when any of the changed properties needs a new resource with this provider. */
  canUpdateInPlace(type: string, changedProperties: readonly string[]): boolean;
  /**
   * SDK providers: the top-level properties in `properties` this provider would not send
   * (a silent drop). A non-empty answer routes the resource through Cloud Control.
   * Absent means the provider covers every property.
   */
  uncoveredProperties?(type: string, properties: JsonObject): string[];
  create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult>;
  update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult>;
  /** Deleting a resource that is already gone succeeds. */
  delete(request: DeleteRequest, context: ProviderContext): Promise<void>;
  /**
   * The physical id of what a create with this request (same idempotency token) made, if
   * it exists: how a create a killed process left in flight is reconciled. Only providers
   * whose generated names derive from the token implement it, since only that is proof.
   */
  locate?(request: ResourceRequest, context: ProviderContext): Promise<string | undefined>;
  /** The live resource, or undefined when it no longer exists. */
  read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined>;
}

/**
 * Thrown by a create whose create call returned (the resource exists) but whose
 * follow-up call then failed, when the provider did not delete what it made: the
 * proof spec 000 asks for before a rollback deletes a failed CREATE's resource.
 * Never thrown for an adopted or pre-existing resource, nor on the strength of an
 * id a failed create's error names (that may be a resource the create collided with).
 */
export class ResourceMadeError extends Error {
  constructor(
    readonly made: { physicalId: string; creationIdentity?: CreationIdentity },
    readonly failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'ResourceMadeError';
  }
}

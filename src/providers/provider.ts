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
}

export interface CreateResult {
  physicalId: string;
  attributes: JsonObject;
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
  create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult>;
  update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult>;
  /** Deleting a resource that is already gone succeeds. */
  delete(request: DeleteRequest, context: ProviderContext): Promise<void>;
  /** The live resource, or undefined when it no longer exists. */
  read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined>;
}

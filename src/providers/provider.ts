import type { AwsClients } from '../aws/index.js';
import type { ResponseStore } from './custom-resource/ports.js';

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
  /**
   * --prefix-user-supplied-names: the types that rewrite names send a name the template
   * gives as `{stack}-{name}` (see user-supplied-names.ts).
   */
  prefixUserSuppliedNames?: boolean;
  signal?: AbortSignal;
  /** What custom resources need of the stack: where handlers answer, and the StackId they are sent. */
  customResources?: CustomResourceSite;
}

export interface CustomResourceSite {
  /** Response objects in the state bucket, under this stack's keys. */
  responses: ResponseStore;
  /** `arn:aws:cloudformation:{region}:{account}:stack/{name}/{uuid}`, kept in the stack's state. */
  stackId: string;
  /** The deploy's interrupt: stops the wait for an answer (the request stays in the journal), never a call. */
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
  /**
   * The engine looked the explicit name up through `nameHolder` just before this create and
   * found it free, so a provider that would look it up again itself need not.
   */
  nameFree?: boolean;
  /**
   * A Cloud Control request an earlier attempt of this create was accepted as (its journaled
   * request token): `locate` asks Cloud Control what that request made.
   */
  acceptedRequest?: string;
  /**
   * When the create was journaled, before its call was sent (its run's start, as the journal
   * records it): `locate` trusts an idempotency key only while the service still honours it.
   */
  journaledAt?: string;
  /**
   * Called once the service has accepted the create as a request to wait on (Cloud Control's
   * request token), before the wait: the engine journals the token, so a process killed during
   * the wait leaves what `locate` needs. The create waits for it to resolve.
   */
  onAccepted?(requestToken: string): Promise<void>;
}

export interface CreateResult {
  physicalId: string;
  attributes: JsonObject;
  /** What `Ref` returns, only where it differs from `physicalId`. */
  ref?: string;
  creationIdentity?: CreationIdentity;
  /** What the create read back from AWS (its own responses, no extra call), in template terms. */
  observed?: JsonObject;
  /**
   * The attributes are secret (a custom resource answered `NoEcho: true`): state records them
   * masked and keeps the values apart, for Fn::GetAtt only.
   */
  noEcho?: boolean;
}

export interface UpdateRequest extends ResourceRequest {
  physicalId: string;
  previousProperties: JsonObject;
}

export interface UpdateResult {
  /** Some updates change the physical id in place (rare); most keep it. */
  physicalId: string;
  /**
   * The update made a new resource beside the old one (a custom resource handler answered a new
   * PhysicalResourceId): the old one is deleted in the cleanup phase, as CloudFormation does.
   */
  oldNeedsDelete?: boolean;
  attributes: JsonObject;
  /** What `Ref` returns, only where it differs from `physicalId`. */
  ref?: string;
  /** What the update read back from AWS, as `CreateResult.observed`. */
  observed?: JsonObject;
  /** As `CreateResult.noEcho`. */
  noEcho?: boolean;
}

export interface DeleteRequest {
  logicalId: string;
  type: string;
  physicalId: string;
  properties: JsonObject;
  /** `cdkd destroy --remove-protection`: turn the resource's deletion protection off first. */
  removeProtection?: boolean;
  /**
   * The delete's journaled token, the same on every attempt: a custom resource's Delete is sent
   * with it as its RequestId. A `read` given the token of a delete a killed process left in
   * flight answers what that delete did, where nothing else can be read (a custom resource).
   */
  idempotencyToken?: string;
}

/** What `Provider.deleteMade` needs besides the delete request. */
export interface MadeDelete {
  /** The creation identity the failed create recorded, if any. */
  creationIdentity?: CreationIdentity;
  /**
   * The attempted properties, ready to compare with what AWS holds: secret references
   * resolved, or why they cannot be compared (masked, a secret gone or refused for good).
   * Rejects on any other failure, which fails the delete.
   */
  attempted(): Promise<{ properties: JsonObject } | { unusable: string }>;
  /**
   * What this deploy's own resources of the same type just applied (a successful deploy):
   * the targets they wrote are left as they are, since the service may still return the
   * old value for a while.
   */
  appliedByThisDeploy?: readonly JsonObject[];
}

/** What a delete left in place for a person to check; empty when it left nothing. */
export interface DeleteReport {
  left: Array<{ target: string; reason: string }>;
}

/**
 * `nameHolder`'s answer for a create under a name the template gives: the name the create
 * would send, and the physical id of the resource holding it now (absent when it is free).
 */
export interface NameLookup {
  name: string;
  holder?: string;
}

/** `locate`'s answer: the resource that create made, `none` when it made nothing, or `unknown`. */
export type LocateAnswer = { physicalId: string } | 'none' | 'unknown';

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
  /**
   * SDK providers: the properties of `type` AWS accepts but never returns on a read (the
   * registry schema's `writeOnlyProperties`: a function's Code, a secret's SecretString), as
   * dotted paths (`*` for any element). `cdkd drift` does not compare them. Absent means none.
   */
  writeOnlyProperties?(type: string): readonly string[];
  create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult>;
  update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult>;
  /** Deleting a resource that is already gone succeeds. */
  delete(request: DeleteRequest, context: ProviderContext): Promise<void>;
  /**
   * Deletes what a failed create made (spec 000), for a resource written onto targets it
   * does not own (a queue's or topic's policy): a target is undone only while it still holds
   * what the create attempted; the rest are reported. Absent means `delete` does it.
   */
  deleteMade?(request: DeleteRequest, made: MadeDelete, context: ProviderContext): Promise<DeleteReport>;
  /**
   * What a create with this request (same idempotency token) made: how a create a killed
   * process left in flight is reconciled. Only what the token proves counts (a generated
   * name derived from it, a tag or version the create wrote in the same call); a request
   * whose resource it cannot prove either way (an explicit name) answers `unknown`.
   */
  locate?(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer>;
  /**
   * The name (or identifier) a create with this request sends, where it is known before the
   * call: one the template gives, or one generated from the request's idempotency token. The
   * engine journals it with the create, so a killed create's entry names where its resource
   * would be. Absent (or undefined) where the service picks the name.
   */
  createName?(request: ResourceRequest, context: ProviderContext): string | undefined;
  /**
   * For a type whose create adopts or overwrites a resource already holding its name (spec
   * 002 "Creates that adopt a taken name"): looks the name this create would send up.
   * Undefined when cdkd generates the name (nothing to look up); rejects when the lookup
   * cannot run. Absent for types whose create refuses a taken name itself.
   */
  nameHolder?(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined>;
  /** The live resource, or undefined when it no longer exists. */
  read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined>;
  /**
   * For a type AWS reports made before it is usable (a Lambda function answers Pending): waits
   * until a resource this deploy created is usable, as CloudFormation does before it reports a
   * resource done. The engine calls it once per created resource, in parallel, before the deploy
   * reports success, so a create need not wait unless its own next call needs it. Absent means a
   * created resource is usable at once.
   */
  untilUsable?(request: DeleteRequest, context: ProviderContext): Promise<void>;
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

/**
 * Thrown when an operation was sent and its outcome cannot be known yet (the deploy's signal
 * stopped the wait for a custom resource's response): the journal keeps it in flight, so a
 * later `cdkd rollback` settles it by reading the cloud instead of guessing.
 */
export class OutcomeUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutcomeUnknownError';
  }
}

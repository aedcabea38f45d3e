/**
 * Resource-level access to what a service module emulates, so Cloud Control and the
 * service's own API act on one store: a bucket made through Cloud Control is a bucket S3
 * lists. A module registers a handler per CloudFormation type it owns; Cloud Control uses
 * it, and its generic store for every other type the resource index knows.
 */

export type ResourceModel = Record<string, unknown>;

/** Cloud Control's handler error codes (ProgressEvent.ErrorCode). */
export type HandlerErrorCode =
  | 'AlreadyExists'
  | 'NotFound'
  | 'InvalidRequest'
  | 'NotUpdatable'
  | 'ResourceConflict'
  | 'GeneralServiceException'
  | 'ServiceInternalError'
  | 'Throttling'
  | 'AccessDenied'
  | 'ServiceLimitExceeded'
  | 'NotStabilized'
  | 'InternalFailure';

/** A handler's failure: the request ends FAILED with this code and message. */
export class HandlerError extends Error {
  constructor(
    readonly errorCode: HandlerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HandlerError';
  }
}

export interface ResourceEntry {
  identifier: string;
  model: ResourceModel;
}

/**
 * One CloudFormation type as a service module serves it to Cloud Control. `accountId` is
 * the account of the Cloud Control request (`SandboxRequest.accountId`): ARNs use it.
 */
export interface ResourceHandler {
  /** Creates the resource from the desired state; returns its identifier and full model. */
  create(desired: ResourceModel, region: string, accountId: string): Promise<ResourceEntry>;
  read(identifier: string, region: string, accountId: string): ResourceModel | undefined;
  /** Applies the full desired state to an existing resource; returns the new model. */
  update(
    identifier: string,
    desired: ResourceModel,
    region: string,
    accountId: string,
  ): Promise<ResourceModel>;
  delete(identifier: string, region: string, accountId: string): Promise<void>;
  list(region: string, accountId: string): ResourceEntry[];
  /** When the resource was made (ISO 8601), where the store keeps it: the APIs' creation dates. */
  createdAt?(identifier: string, region: string): string | undefined;
  /**
   * The properties `read` never returns, top-level or dotted: what DescribeType answers as the
   * type's `writeOnlyProperties`, as the registry names those AWS's reads leave out.
   */
  readonly writeOnlyProperties?: readonly string[];
}

export class ResourceHandlers {
  private readonly handlers = new Map<string, ResourceHandler>();
  private fallback: ((type: string) => ResourceHandler | undefined) | undefined;

  register(type: string, handler: ResourceHandler): void {
    this.handlers.set(type, handler);
  }

  get(type: string): ResourceHandler | undefined {
    return this.handlers.get(type);
  }

  /** Where Cloud Control keeps every type no module registered (its generic store). */
  setFallback(fallback: (type: string) => ResourceHandler | undefined): void {
    this.fallback = fallback;
  }

  /**
   * The handler that holds `type`, wherever it lives: a module reading resources Cloud
   * Control made (EC2 describing a VPC) reads the one store they are in.
   */
  resolve(type: string): ResourceHandler | undefined {
    return this.get(type) ?? this.fallback?.(type);
  }

  /**
   * Cloud Control's generic store for `type`, even where a module registered a handler: a
   * module that adds behaviour around a type it leaves stored there (API Gateway freezing a
   * deployment's configuration) delegates to it.
   */
  generic(type: string): ResourceHandler | undefined {
    return this.fallback?.(type);
  }
}

/** Lambda state as the sandbox persists it: one document per function, layer and mapping. */

export interface CodeRecord {
  /** Base64 SHA-256 of the package, as Lambda reports CodeSha256. */
  sha256: string;
  size: number;
  /** Where the package came from: an S3 object, or an inline ZipFile. */
  source: { bucket: string; key: string; version?: string } | 'zip' | 'image';
  /** The package bytes as copied at call time (storage blob in `lambda/code`), which Invoke runs. */
  blob?: string;
  /** A container image function's image (PackageType Image): no package, an image in ECR. */
  image?: ImageCode;
}

/** The image an ImageUri named, pinned to the digest it resolved to when the function was made. */
export interface ImageCode {
  uri: string;
  /** `{registry}/{repository}@sha256:…`, as GetFunction's ResolvedImageUri. */
  resolvedUri: string;
  digest: string;
}

export interface ImageConfigRecord {
  EntryPoint?: string[];
  Command?: string[];
  WorkingDirectory?: string;
}

/** The function's CloudWatch Logs settings; log levels exist only with the JSON format. */
export interface LoggingRecord {
  format: 'Text' | 'JSON';
  /** Unset: the default group `/aws/lambda/<function name>`. */
  logGroup?: string;
  applicationLogLevel?: string;
  systemLogLevel?: string;
}

/**
 * Settings each at Lambda's default when unset (PassThrough tracing, 512 MB of /tmp, the
 * AWS managed key, Text logs to the default group, no EFS mount, SnapStart None).
 */
export interface FunctionSettings {
  tracingMode?: string;
  ephemeralStorage?: number;
  kmsKeyArn?: string;
  logging?: LoggingRecord;
  fileSystemConfigs?: Array<{ Arn: string; LocalMountPath: string }>;
  snapStartApplyOn?: string;
}

/** The configuration of `$LATEST`, or a snapshot of it as a published version. */
export interface FunctionConfig extends FunctionSettings {
  role: string;
  handler?: string;
  runtime?: string;
  description: string;
  timeout: number;
  memorySize: number;
  environment?: Record<string, string>;
  layers: string[];
  architectures: string[];
  vpcConfig?: { SubnetIds: string[]; SecurityGroupIds: string[] };
  deadLetterTargetArn?: string;
  /** An image function's ImageConfig: what replaces the image's ENTRYPOINT, CMD and WORKDIR. */
  imageConfig?: ImageConfigRecord;
  code: CodeRecord;
  revisionId: string;
  lastModified: string;
}

export interface PublishedVersion {
  version: string;
  description: string;
  config: FunctionConfig;
  /** The `$LATEST` revision it was published from: publishing it again returns this version. */
  sourceRevisionId: string;
}

export interface AliasRecord {
  name: string;
  functionVersion: string;
  description: string;
  /** Weighted routing to a second version, as `RoutingConfig.AdditionalVersionWeights`. */
  additionalVersionWeights?: Record<string, number>;
  revisionId: string;
}

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow';
  Principal: unknown;
  Action: string;
  Resource: string;
  Condition?: Record<string, Record<string, string>>;
}

export interface UrlRecord {
  qualifier?: string;
  authType: string;
  cors?: Record<string, unknown>;
  invokeMode: string;
  urlId: string;
  createdAt: string;
  lastModified: string;
}

/** A function's asynchronous-invocation settings for one qualifier (`$LATEST`, a version or an alias). */
export interface EventInvokeConfigRecord {
  qualifier: string;
  maximumRetryAttempts?: number;
  maximumEventAgeInSeconds?: number;
  destinationConfig?: Record<string, unknown>;
  /** Epoch ms. */
  lastModified: number;
}

export interface FunctionRecord {
  name: string;
  region: string;
  arn: string;
  latest: FunctionConfig;
  /** Epoch ms when the function leaves Pending (CreateFunction) ... */
  activeAt: number;
  /** ... and when the last code / configuration update finishes (InProgress → Successful). */
  updateDoneAt?: number;
  versions: PublishedVersion[];
  nextVersion: number;
  aliases: AliasRecord[];
  /** Resource-based policy statements per qualifier ('' is the unqualified function). */
  policies: Record<string, PolicyStatement[]>;
  tags: Record<string, string>;
  reservedConcurrency?: number;
  urls: UrlRecord[];
  /** Absent in a function saved before the sandbox modelled them. */
  eventInvokeConfigs?: EventInvokeConfigRecord[];
  /**
   * AWS::Lambda::Function properties set through Cloud Control that this emulation does
   * not model (ImageConfig, RuntimeManagementConfig ...), kept so a read returns them.
   */
  otherProperties?: Record<string, unknown>;
}

export interface LayerVersionRecord {
  layerName: string;
  region: string;
  version: number;
  description: string;
  compatibleRuntimes: string[];
  compatibleArchitectures: string[];
  licenseInfo?: string;
  code: CodeRecord;
  createdDate: string;
  /** A deleted version is kept as a tombstone so its number is never reused. */
  deleted?: boolean;
}

export interface MappingRecord {
  uuid: string;
  region: string;
  functionArn: string;
  eventSourceArn?: string;
  batchSize?: number;
  enabled: boolean;
  startingPosition?: string;
  maximumBatchingWindowInSeconds?: number;
  lastModified: number;
  /**
   * The other settings as the API takes them (FilterCriteria, FunctionResponseTypes,
   * BisectBatchOnFunctionError, MaximumRetryAttempts, MaximumRecordAgeInSeconds,
   * DestinationConfig, ParallelizationFactor, ScalingConfig, StartingPositionTimestamp ...).
   */
  settings?: Record<string, unknown>;
  /** A stream mapping's next sequence number to read, kept across restarts. */
  position?: string;
  /** What the poller's last batch came to (`OK`, `PROBLEM: ...`), as LastProcessingResult. */
  lastProcessingResult?: string;
}

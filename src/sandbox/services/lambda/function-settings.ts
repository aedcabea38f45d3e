import { lambdaErrors } from './lambda-errors.js';
import type { FunctionSettings, LoggingRecord } from './model.js';

const TRACING_MODES = ['Active', 'PassThrough'];
const LOG_FORMATS = ['JSON', 'Text'];
const APPLICATION_LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];
const SYSTEM_LOG_LEVELS = ['DEBUG', 'INFO', 'WARN'];
const SNAP_START_APPLY_ON = ['PublishedVersions', 'None'];
const LOG_GROUP_PATTERN = /^[.\-_/#A-Za-z0-9]{1,512}$/;
const KMS_KEY_PATTERN = /^arn:(aws[a-zA-Z-]*)?:[a-z0-9-.]+:.*$/;
const MOUNT_PATH_PATTERN = /^\/mnt\/[a-zA-Z0-9-_.]+$/;
/** The managed runtimes SnapStart supports. */
const SNAP_START_RUNTIMES = new Set(['java11', 'java17', 'java21', 'python3.12', 'python3.13', 'dotnet8']);

/**
 * The settings members a CreateFunction / UpdateFunctionConfiguration names, over `base`.
 * LoggingConfig merges member by member; the log levels go when the format is Text.
 */
export function applySettings<T extends FunctionSettings>(input: Record<string, unknown>, base: T): T {
  const next: T = { ...base };
  if (isObject(input.TracingConfig) && input.TracingConfig.Mode !== undefined)
    next.tracingMode = oneOf('tracingConfig.mode', input.TracingConfig.Mode, TRACING_MODES);
  if (isObject(input.EphemeralStorage)) next.ephemeralStorage = storageSize(input.EphemeralStorage.Size);
  if (typeof input.KMSKeyArn === 'string') {
    if (input.KMSKeyArn === '') delete next.kmsKeyArn;
    else next.kmsKeyArn = matching('kMSKeyArn', input.KMSKeyArn, KMS_KEY_PATTERN);
  }
  if (isObject(input.LoggingConfig)) next.logging = logging(input.LoggingConfig, base.logging);
  if (Array.isArray(input.FileSystemConfigs)) {
    const mounts = input.FileSystemConfigs.map(fileSystemConfig);
    if (mounts.length > 1) throw lambdaErrors.invalid('Only one file system may be mounted to a function.');
    if (mounts.length > 0) next.fileSystemConfigs = mounts;
    else delete next.fileSystemConfigs;
  }
  if (isObject(input.SnapStart) && input.SnapStart.ApplyOn !== undefined)
    next.snapStartApplyOn = oneOf('snapStart.applyOn', input.SnapStart.ApplyOn, SNAP_START_APPLY_ON);
  return next;
}

/** Rules across members, checked on the configuration as it would be after the call. */
export function checkSettings(
  settings: FunctionSettings,
  runtime: string | undefined,
  vpcConfig: { SubnetIds: string[] } | undefined,
): void {
  if (settings.snapStartApplyOn === 'PublishedVersions' && !SNAP_START_RUNTIMES.has(runtime ?? '')) {
    throw lambdaErrors.invalid(`${runtime ?? 'This'} runtime does not support SnapStart.`);
  }
  if (settings.fileSystemConfigs && !vpcConfig?.SubnetIds.length) {
    throw lambdaErrors.invalid(
      'Lambda functions that mount an EFS file system must be configured with a VPC (VpcConfig).',
    );
  }
}

/** The settings as FunctionConfiguration reports them, defaults included. */
export function settingsView(
  functionName: string,
  settings: FunctionSettings,
  published: boolean,
): Record<string, unknown> {
  const applyOn = settings.snapStartApplyOn ?? 'None';
  return {
    TracingConfig: { Mode: settings.tracingMode ?? 'PassThrough' },
    EphemeralStorage: { Size: settings.ephemeralStorage ?? 512 },
    ...(settings.kmsKeyArn ? { KMSKeyArn: settings.kmsKeyArn } : {}),
    LoggingConfig: loggingView(functionName, settings.logging),
    ...(settings.fileSystemConfigs ? { FileSystemConfigs: settings.fileSystemConfigs } : {}),
    // Only a published version is optimized; `$LATEST` never runs from a snapshot.
    SnapStart: {
      ApplyOn: applyOn,
      OptimizationStatus: published && applyOn === 'PublishedVersions' ? 'On' : 'Off',
    },
  };
}

/** The settings as Cloud Control's AWS::Lambda::Function model holds them. */
export function settingsModel(functionName: string, settings: FunctionSettings): Record<string, unknown> {
  const view = settingsView(functionName, settings, false);
  return {
    TracingConfig: view.TracingConfig,
    EphemeralStorage: view.EphemeralStorage,
    ...(settings.kmsKeyArn ? { KmsKeyArn: settings.kmsKeyArn } : {}),
    LoggingConfig: view.LoggingConfig,
    ...(settings.fileSystemConfigs ? { FileSystemConfigs: settings.fileSystemConfigs } : {}),
    SnapStart: { ApplyOn: settings.snapStartApplyOn ?? 'None' },
    SnapStartResponse: view.SnapStart,
  };
}

/**
 * The API members for a Cloud Control model (CloudFormation's names), each dropped one
 * at its default, as CloudFormation's handler sends them.
 */
export function settingsInput(
  functionName: string,
  desired: Record<string, unknown>,
): Record<string, unknown> {
  const logging = isObject(desired.LoggingConfig) ? desired.LoggingConfig : {};
  const json = logging.LogFormat === 'JSON';
  return {
    TracingConfig: desired.TracingConfig ?? { Mode: 'PassThrough' },
    EphemeralStorage: desired.EphemeralStorage ?? { Size: 512 },
    KMSKeyArn: desired.KmsKeyArn ?? '',
    LoggingConfig: {
      LogFormat: 'Text',
      LogGroup: `/aws/lambda/${functionName}`,
      ...(json ? { ApplicationLogLevel: 'INFO', SystemLogLevel: 'INFO' } : {}),
      ...logging,
    },
    FileSystemConfigs: desired.FileSystemConfigs ?? [],
    SnapStart: desired.SnapStart ?? { ApplyOn: 'None' },
  };
}

function loggingView(functionName: string, logging: LoggingRecord | undefined): Record<string, unknown> {
  const format = logging?.format ?? 'Text';
  return {
    LogFormat: format,
    LogGroup: logging?.logGroup ?? `/aws/lambda/${functionName}`,
    ...(format === 'JSON'
      ? {
          ApplicationLogLevel: logging?.applicationLogLevel ?? 'INFO',
          SystemLogLevel: logging?.systemLogLevel ?? 'INFO',
        }
      : {}),
  };
}

function logging(input: Record<string, unknown>, base: LoggingRecord | undefined): LoggingRecord {
  const next: LoggingRecord = { format: 'Text', ...base };
  if (input.LogFormat !== undefined)
    next.format = oneOf('loggingConfig.logFormat', input.LogFormat, LOG_FORMATS) as LoggingRecord['format'];
  if (input.LogGroup !== undefined)
    next.logGroup = matching('loggingConfig.logGroup', input.LogGroup, LOG_GROUP_PATTERN);
  if (input.ApplicationLogLevel !== undefined) {
    next.applicationLogLevel = oneOf(
      'loggingConfig.applicationLogLevel',
      input.ApplicationLogLevel,
      APPLICATION_LOG_LEVELS,
    );
  }
  if (input.SystemLogLevel !== undefined)
    next.systemLogLevel = oneOf('loggingConfig.systemLogLevel', input.SystemLogLevel, SYSTEM_LOG_LEVELS);
  if (next.format === 'Text') {
    if (input.ApplicationLogLevel !== undefined || input.SystemLogLevel !== undefined) {
      throw lambdaErrors.invalid(
        'LogLevel is not supported when LogFormat is set to "Text". Remove LogLevel from your request or change the LogFormat to "Json" and try again.',
      );
    }
    delete next.applicationLogLevel;
    delete next.systemLogLevel;
  }
  return next;
}

function fileSystemConfig(value: unknown): { Arn: string; LocalMountPath: string } {
  const config = isObject(value) ? value : {};
  if (typeof config.Arn !== 'string' || config.Arn === '')
    throw lambdaErrors.invalid('FileSystemConfigs: each entry needs the Arn of an EFS access point.');
  return {
    Arn: config.Arn,
    LocalMountPath: matching(
      'fileSystemConfigs.member.localMountPath',
      config.LocalMountPath,
      MOUNT_PATH_PATTERN,
    ),
  };
}

function storageSize(value: unknown): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 512 || size > 10240) {
    throw constraint('ephemeralStorage.size', value, 'Member must have value between 512 and 10240');
  }
  return size;
}

function oneOf(member: string, value: unknown, allowed: readonly string[]): string {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw constraint(member, value, `Member must satisfy enum value set: [${allowed.join(', ')}]`);
  }
  return value;
}

function matching(member: string, value: unknown, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw constraint(member, value, `Member must satisfy regular expression pattern: ${pattern.source}`);
  }
  return value;
}

/** Lambda answers these settings' constraint failures as InvalidParameterValueException. */
function constraint(member: string, value: unknown, rule: string) {
  return lambdaErrors.invalid(
    `1 validation error detected: Value '${String(value)}' at '${member}' failed to satisfy constraint: ${rule}`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

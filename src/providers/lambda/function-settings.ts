import type {
  FileSystemConfig,
  FunctionConfiguration,
  LoggingConfig,
  UpdateFunctionConfigurationRequest,
} from '@aws-sdk/client-lambda';
import type { JsonObject } from '../provider.js';
import { asObject, integer, string } from './common.js';

/** The settings beyond the basics this provider sends: CloudFormation's names. */
export const SETTING_PROPERTIES = [
  'TracingConfig',
  'EphemeralStorage',
  'KmsKeyArn',
  'LoggingConfig',
  'FileSystemConfigs',
  'SnapStart',
] as const;

type Settings = Pick<
  UpdateFunctionConfigurationRequest,
  'TracingConfig' | 'EphemeralStorage' | 'KMSKeyArn' | 'LoggingConfig' | 'FileSystemConfigs' | 'SnapStart'
>;

/** Lambda's value for each logging member the template leaves out (levels exist with JSON only). */
function loggingDefaults(functionName: string, format: string): JsonObject {
  return {
    LogFormat: 'Text',
    LogGroup: `/aws/lambda/${functionName}`,
    ...(format === 'JSON' ? { ApplicationLogLevel: 'INFO', SystemLogLevel: 'INFO' } : {}),
  };
}

/**
 * The settings members of UpdateFunctionConfiguration, complete: each one the template
 * leaves out is sent at Lambda's default (PassThrough, 512 MB, the AWS managed key, Text
 * logs to /aws/lambda/<name>, no mount), since an omitted member keeps the old value.
 * SnapStart is sent only when the template or the previous properties name it.
 */
export function settingsInput(
  properties: JsonObject,
  functionName: string,
  previous: JsonObject = {},
): Settings {
  const logging = asObject(properties.LoggingConfig) ?? {};
  const format = string(logging.LogFormat) ?? 'Text';
  const snapStart = asObject(properties.SnapStart);
  return {
    TracingConfig: { Mode: (string(asObject(properties.TracingConfig)?.Mode) ?? 'PassThrough') as never },
    EphemeralStorage: {
      Size: integer(asObject(properties.EphemeralStorage)?.Size, 'EphemeralStorage.Size') ?? 512,
    },
    KMSKeyArn: string(properties.KmsKeyArn) ?? '',
    // Levels the template names are sent even with Text, so Lambda's refusal names the mistake.
    LoggingConfig: { ...loggingDefaults(functionName, format), ...stringMembers(logging) } as LoggingConfig,
    FileSystemConfigs: fileSystemConfigs(properties.FileSystemConfigs) ?? [],
    ...(snapStart || previous.SnapStart !== undefined
      ? { SnapStart: { ApplyOn: (string(snapStart?.ApplyOn) ?? 'None') as never } }
      : {}),
  };
}

/** CreateFunction's settings members: only those the template sets. */
export function createSettings(properties: JsonObject, functionName: string): Settings {
  const all = settingsInput(properties, functionName, {});
  const present = (property: string) => properties[property] !== undefined;
  return {
    ...(present('TracingConfig') ? { TracingConfig: all.TracingConfig } : {}),
    ...(present('EphemeralStorage') ? { EphemeralStorage: all.EphemeralStorage } : {}),
    ...(all.KMSKeyArn ? { KMSKeyArn: all.KMSKeyArn } : {}),
    ...(present('LoggingConfig') ? { LoggingConfig: all.LoggingConfig } : {}),
    ...(all.FileSystemConfigs!.length > 0 ? { FileSystemConfigs: all.FileSystemConfigs } : {}),
    ...(all.SnapStart ? { SnapStart: all.SnapStart } : {}),
  };
}

/**
 * The live settings in template terms. Within each, a member is reported when the template
 * names it or AWS holds it at other than its default, so a template that sets part of a
 * setting (LoggingConfig with only LogGroup) reads back as it was applied.
 */
export function observedSettings(config: FunctionConfiguration, applied: JsonObject): JsonObject {
  const name = config.FunctionName ?? '';
  const logging = (config.LoggingConfig ?? {}) as JsonObject;
  const observed: JsonObject = {
    TracingConfig: projected(
      { Mode: config.TracingConfig?.Mode },
      { Mode: 'PassThrough' },
      applied.TracingConfig,
    ),
    EphemeralStorage: projected(
      { Size: config.EphemeralStorage?.Size },
      { Size: 512 },
      applied.EphemeralStorage,
    ),
    KmsKeyArn: config.KMSKeyArn || undefined,
    LoggingConfig: projected(
      logging,
      loggingDefaults(name, string(logging.LogFormat) ?? 'Text'),
      applied.LoggingConfig,
    ),
    FileSystemConfigs: config.FileSystemConfigs?.length
      ? config.FileSystemConfigs.map(({ Arn, LocalMountPath }) => ({ Arn, LocalMountPath }))
      : undefined,
    SnapStart: projected({ ApplyOn: config.SnapStart?.ApplyOn }, { ApplyOn: 'None' }, applied.SnapStart),
  };
  return Object.fromEntries(Object.entries(observed).filter(([, value]) => value !== undefined));
}

/** The members of `live` the template names or that differ from `defaults`; undefined if none. */
function projected(live: JsonObject, defaults: JsonObject, applied: unknown): JsonObject | undefined {
  const named = asObject(applied) ?? {};
  const kept = Object.entries(live).filter(
    ([member, value]) => value !== undefined && (member in named || value !== defaults[member]),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function stringMembers(value: JsonObject): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== undefined && member !== null)
      .map(([key, member]) => [key, String(member)]),
  );
}

function fileSystemConfigs(value: unknown): FileSystemConfig[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((entry) => {
    const config = asObject(entry) ?? {};
    return { Arn: string(config.Arn) ?? '', LocalMountPath: string(config.LocalMountPath) ?? '' };
  });
}

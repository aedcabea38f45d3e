import type { CreateFunctionRequest, UpdateFunctionConfigurationRequest } from '@aws-sdk/client-lambda';
import type { JsonObject } from '../provider.js';
import { asObject, integer, string, stringList } from './common.js';
import { createSettings, SETTING_PROPERTIES, settingsInput } from './function-settings.js';
import { inlineZip } from './inline-zip.js';

/** The AWS::Lambda::Function properties this provider sends; any other routes to Cloud Control. */
export const FUNCTION_PROPERTIES = new Set([
  'FunctionName',
  'Code',
  'Handler',
  'Runtime',
  'Role',
  'Environment',
  'Layers',
  'MemorySize',
  'Timeout',
  'Architectures',
  'VpcConfig',
  'DeadLetterConfig',
  'Description',
  'Tags',
  'ReservedConcurrentExecutions',
  'PackageType',
  ...SETTING_PROPERTIES,
]);

const CODE_MEMBERS = new Set(['S3Bucket', 'S3Key', 'S3ObjectVersion', 'ZipFile']);

/** Covered properties this provider would still drop part of: image packages, Code.SourceKMSKeyArn ... */
export function unsendableFunctionProperties(properties: JsonObject): string[] {
  const out: string[] = [];
  const code = asObject(properties.Code) ?? {};
  if (Object.keys(code).some((member) => !CODE_MEMBERS.has(member))) out.push('Code');
  if (properties.PackageType !== undefined && properties.PackageType !== 'Zip') out.push('PackageType');
  return out;
}

/** The Code member of CreateFunction, or UpdateFunctionCode's code fields. */
export function codeInput(
  properties: JsonObject,
): { ZipFile: Uint8Array } | { S3Bucket: string; S3Key: string; S3ObjectVersion?: string } {
  const code = asObject(properties.Code) ?? {};
  if (typeof code.ZipFile === 'string')
    return { ZipFile: inlineZip(code.ZipFile, string(properties.Runtime)) };
  const version = string(code.S3ObjectVersion);
  return {
    S3Bucket: string(code.S3Bucket) ?? '',
    S3Key: string(code.S3Key) ?? '',
    ...(version !== undefined ? { S3ObjectVersion: version } : {}),
  };
}

/**
 * The configuration members of UpdateFunctionConfiguration, complete: a property the
 * template dropped is sent at Lambda's default (empty environment, no VPC, 3 s, 128 MB,
 * and the settings' defaults), since an omitted member would leave the old value in place.
 */
export function configurationInput(
  properties: JsonObject,
  functionName: string,
  previous: JsonObject = {},
): Omit<UpdateFunctionConfigurationRequest, 'FunctionName'> {
  const environment = asObject(asObject(properties.Environment)?.Variables) ?? {};
  const vpc = asObject(properties.VpcConfig);
  const deadLetter = asObject(properties.DeadLetterConfig);
  return {
    Role: string(properties.Role),
    Handler: string(properties.Handler),
    Runtime: string(properties.Runtime) as UpdateFunctionConfigurationRequest['Runtime'],
    Description: string(properties.Description) ?? '',
    Timeout: integer(properties.Timeout, 'Timeout') ?? 3,
    MemorySize: integer(properties.MemorySize, 'MemorySize') ?? 128,
    Environment: {
      Variables: Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])),
    },
    Layers: stringList(properties.Layers) ?? [],
    VpcConfig: {
      SubnetIds: stringList(vpc?.SubnetIds) ?? [],
      SecurityGroupIds: stringList(vpc?.SecurityGroupIds) ?? [],
    },
    DeadLetterConfig: { TargetArn: string(deadLetter?.TargetArn) ?? '' },
    ...settingsInput(properties, functionName, previous),
  };
}

/** CreateFunction's input: the configuration without the "clear" values of an update. */
export function createInput(
  name: string,
  properties: JsonObject,
  tags: Record<string, string>,
): CreateFunctionRequest {
  const config = configurationInput(properties, name);
  const architectures = stringList(properties.Architectures);
  return {
    FunctionName: name,
    Code: codeInput(properties),
    Role: config.Role!,
    Handler: config.Handler,
    Runtime: config.Runtime,
    Description: config.Description,
    Timeout: config.Timeout,
    MemorySize: config.MemorySize,
    PackageType: 'Zip',
    ...(Object.keys(config.Environment!.Variables!).length > 0 ? { Environment: config.Environment } : {}),
    ...(config.Layers!.length > 0 ? { Layers: config.Layers } : {}),
    ...(config.VpcConfig!.SubnetIds!.length > 0 || config.VpcConfig!.SecurityGroupIds!.length > 0
      ? { VpcConfig: config.VpcConfig }
      : {}),
    ...(config.DeadLetterConfig!.TargetArn ? { DeadLetterConfig: config.DeadLetterConfig } : {}),
    ...(architectures ? { Architectures: architectures as CreateFunctionRequest['Architectures'] } : {}),
    ...createSettings(properties, name),
    ...(Object.keys(tags).length > 0 ? { Tags: tags } : {}),
  };
}

/** Which of the changed properties need which call (code and architecture go together). */
export function updateCalls(changed: readonly string[]): {
  code: boolean;
  configuration: boolean;
  tags: boolean;
  concurrency: boolean;
} {
  const has = (...names: string[]) => names.some((name) => changed.includes(name));
  return {
    code: has('Code', 'Architectures'),
    configuration: has(
      'Role',
      'Handler',
      'Runtime',
      'Description',
      'Timeout',
      'MemorySize',
      'Environment',
      'Layers',
      'VpcConfig',
      'DeadLetterConfig',
      ...SETTING_PROPERTIES,
    ),
    tags: has('Tags'),
    concurrency: has('ReservedConcurrentExecutions'),
  };
}

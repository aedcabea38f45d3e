import { strToU8, zipSync } from 'fflate';
import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import {
  HandlerError,
  type HandlerErrorCode,
  type ResourceHandler,
  type ResourceModel,
} from '../../resources.js';
import type { LambdaCall } from './call.js';
import * as functions from './function-ops.js';
import { settingsInput, settingsModel } from './function-settings.js';
import type { FunctionRecord } from './model.js';
import type { LambdaStore } from './store.js';

/** The properties the Lambda emulation models; the rest are kept as given. */
const MODELLED = new Set([
  'FunctionName',
  'ImageConfig',
  'Code',
  'Role',
  'Handler',
  'Runtime',
  'Description',
  'Timeout',
  'MemorySize',
  'Environment',
  'Layers',
  'Architectures',
  'VpcConfig',
  'DeadLetterConfig',
  'Tags',
  'ReservedConcurrentExecutions',
  'PackageType',
  'TracingConfig',
  'EphemeralStorage',
  'KmsKeyArn',
  'LoggingConfig',
  'FileSystemConfigs',
  'SnapStart',
]);

const ERROR_CODES: Record<string, HandlerErrorCode> = {
  ResourceNotFoundException: 'NotFound',
  ResourceConflictException: 'ResourceConflict',
  InvalidParameterValueException: 'InvalidRequest',
  ValidationException: 'InvalidRequest',
};

/**
 * AWS::Lambda::Function for Cloud Control, on the Lambda module's own store, so a function
 * Cloud Control made (one with properties the SDK provider does not send) is one the Lambda
 * API serves to permissions, versions and aliases.
 */
export function functionResourceHandler(
  store: LambdaStore,
  newCall: (
    region: string,
    input: Record<string, unknown>,
    labels?: Record<string, string>,
    accountId?: string,
  ) => LambdaCall,
): ResourceHandler {
  const model = (record: FunctionRecord): ResourceModel => {
    const config = record.latest;
    return {
      ...record.otherProperties,
      FunctionName: record.name,
      Arn: record.arn,
      Role: config.role,
      ...(config.handler ? { Handler: config.handler } : {}),
      ...(config.runtime ? { Runtime: config.runtime } : {}),
      Description: config.description,
      Timeout: config.timeout,
      MemorySize: config.memorySize,
      Architectures: config.architectures,
      PackageType: config.code.image ? 'Image' : 'Zip',
      ...(config.environment ? { Environment: { Variables: config.environment } } : {}),
      ...(config.layers.length > 0 ? { Layers: config.layers } : {}),
      ...(config.vpcConfig ? { VpcConfig: config.vpcConfig } : {}),
      ...(config.deadLetterTargetArn ? { DeadLetterConfig: { TargetArn: config.deadLetterTargetArn } } : {}),
      ...(config.imageConfig ? { ImageConfig: config.imageConfig } : {}),
      ...(Object.keys(record.tags).length > 0
        ? { Tags: Object.entries(record.tags).map(([Key, Value]) => ({ Key, Value })) }
        : {}),
      ...(record.reservedConcurrency !== undefined
        ? { ReservedConcurrentExecutions: record.reservedConcurrency }
        : {}),
      ...settingsModel(record.name, config),
    };
  };
  const finish = async (region: string, name: string, desired: ResourceModel): Promise<ResourceModel> => {
    const record = store.function(region, name)!;
    settle(record);
    const other = Object.fromEntries(Object.entries(desired).filter(([key]) => !MODELLED.has(key)));
    record.otherProperties = other;
    const concurrency = desired.ReservedConcurrentExecutions;
    if (concurrency === undefined) delete record.reservedConcurrency;
    else record.reservedConcurrency = Number(concurrency);
    await store.saveFunction(record);
    return model(record);
  };
  return {
    // GetFunction answers a location for the code, never the Code sent (the model above leaves it out).
    writeOnlyProperties: ['Code'],
    async create(desired, region, accountId) {
      const name =
        typeof desired.FunctionName === 'string' ? desired.FunctionName : `CFN-Function-${randomString(12)}`;
      await translate(() =>
        functions.createFunction(
          newCall(
            region,
            {
              ...apiInput(name, desired),
              FunctionName: name,
              Code: codeInput(desired.Code, desired.Runtime),
            },
            {},
            accountId,
          ),
        ),
      );
      return { identifier: name, model: await finish(region, name, desired) };
    },
    read(identifier, region) {
      const record = store.function(region, identifier);
      return record ? model(record) : undefined;
    },
    async update(identifier, desired, region) {
      const labels = { FunctionName: identifier };
      if (desired.Code !== undefined) {
        await translate(() =>
          functions.updateFunctionCode(newCall(region, codeInput(desired.Code, desired.Runtime), labels)),
        );
      }
      await translate(() =>
        functions.updateFunctionConfiguration(newCall(region, apiInput(identifier, desired), labels)),
      );
      const record = store.function(region, identifier)!;
      record.updateDoneAt = undefined;
      record.tags = Object.fromEntries(tagList(desired.Tags).map((tag) => [tag.Key, tag.Value]));
      return finish(region, identifier, desired);
    },
    async delete(identifier, region) {
      await translate(() => functions.deleteFunction(newCall(region, {}, { FunctionName: identifier })));
    },
    list(region) {
      return store
        .allFunctions()
        .filter((record) => record.region === region)
        .map((record) => ({ identifier: record.name, model: model(record) }));
    },
  };
}

/** Cloud Control's request carries the wait itself (its latency model), so the record is settled at once. */
function settle(record: FunctionRecord): void {
  record.activeAt = Math.min(record.activeAt, Date.now());
  delete record.updateDoneAt;
}

/** CloudFormation's shape as the API's: tag list to map, an unset member to its default. */
function apiInput(name: string, desired: ResourceModel): Record<string, unknown> {
  return {
    ...settingsInput(name, desired),
    Role: desired.Role,
    Handler: desired.Handler,
    Runtime: desired.Runtime,
    Description: desired.Description ?? '',
    Timeout: desired.Timeout ?? 3,
    MemorySize: desired.MemorySize ?? 128,
    Environment: desired.Environment ?? {},
    Layers: desired.Layers ?? [],
    Architectures: desired.Architectures,
    ...(desired.PackageType !== undefined ? { PackageType: desired.PackageType } : {}),
    VpcConfig: desired.VpcConfig ?? {},
    DeadLetterConfig: desired.DeadLetterConfig ?? {},
    ImageConfig: desired.ImageConfig ?? {},
    Tags: Object.fromEntries(tagList(desired.Tags).map((tag) => [tag.Key, tag.Value])),
  };
}

/**
 * Inline source becomes the package CloudFormation makes of it: a zip holding it as
 * `index.py` for Python runtimes and `index.js` otherwise, so the function runs.
 */
function codeInput(code: unknown, runtime: unknown): Record<string, unknown> {
  const value = (code ?? {}) as Record<string, unknown>;
  if (typeof value.ZipFile !== 'string') return value;
  const file = typeof runtime === 'string' && runtime.startsWith('python') ? 'index.py' : 'index.js';
  // A fixed time stamp keeps the package (and CodeSha256) the same for the same source.
  const zip = zipSync({ [file]: [strToU8(value.ZipFile), { mtime: new Date('1980-01-01T00:00:00Z') }] });
  return { ZipFile: Buffer.from(zip).toString('base64') };
}

function tagList(tags: unknown): Array<{ Key: string; Value: string }> {
  return Array.isArray(tags) ? (tags as Array<{ Key: string; Value: string }>) : [];
}

async function translate<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof SandboxError)
      throw new HandlerError(ERROR_CODES[error.code] ?? 'GeneralServiceException', error.message);
    throw error;
  }
}

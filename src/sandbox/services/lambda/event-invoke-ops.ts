import { requireFunction, type LambdaCall, type LambdaHandler } from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { EventInvokeConfigRecord, FunctionRecord } from './model.js';

/**
 * Asynchronous-invocation settings, one per qualifier; they live on the function's record, so
 * DeleteFunction takes them with it, as a version's or alias's delete takes its own.
 */

const LATEST = '$LATEST';

/** Put replaces the whole configuration: a setting it leaves out goes back to the default. */
export const putFunctionEventInvokeConfig: LambdaHandler = async (call) => {
  const { record, qualifier } = requireQualifier(call);
  const config: EventInvokeConfigRecord = { qualifier, lastModified: call.now };
  applySettings(call, config);
  record.eventInvokeConfigs = [...others(record, qualifier), config];
  await call.store.saveFunction(record);
  return view(record, config);
};

/** Update changes only the settings it is given, and needs a configuration to change. */
export const updateFunctionEventInvokeConfig: LambdaHandler = async (call) => {
  const { record, config } = requireConfig(call);
  applySettings(call, config);
  config.lastModified = call.now;
  await call.store.saveFunction(record);
  return view(record, config);
};

export const getFunctionEventInvokeConfig: LambdaHandler = async (call) => {
  const { record, config } = requireConfig(call);
  return view(record, config);
};

export const deleteFunctionEventInvokeConfig: LambdaHandler = async (call) => {
  const { record, config } = requireConfig(call);
  record.eventInvokeConfigs = others(record, config.qualifier);
  await call.store.saveFunction(record);
  return undefined;
};

export const listFunctionEventInvokeConfigs: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  const maxItems = Number(call.query.get('MaxItems') ?? 50);
  if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > 50) {
    throw lambdaErrors.validation('maxItems', maxItems, 'Member must have value between 1 and 50');
  }
  const start = Number(call.query.get('Marker') ?? 0);
  const configs = record.eventInvokeConfigs ?? [];
  const page = configs.slice(start, start + maxItems);
  const next = start + page.length;
  return {
    FunctionEventInvokeConfigs: page.map((config) => view(record, config)),
    ...(next < configs.length ? { NextMarker: String(next) } : {}),
  };
};

/** Drops the configuration of a qualifier that is going away (a deleted version or alias). */
export function dropEventInvokeConfig(record: FunctionRecord, qualifier: string): void {
  if (record.eventInvokeConfigs) record.eventInvokeConfigs = others(record, qualifier);
}

function others(record: FunctionRecord, qualifier: string): EventInvokeConfigRecord[] {
  return (record.eventInvokeConfigs ?? []).filter((config) => config.qualifier !== qualifier);
}

/** The function and the qualifier addressed, which must exist: unqualified means `$LATEST`. */
function requireQualifier(call: LambdaCall): { record: FunctionRecord; qualifier: string } {
  const { record, qualifier = LATEST } = requireFunction(call);
  const known =
    qualifier === LATEST ||
    record.versions.some((version) => version.version === qualifier) ||
    record.aliases.some((alias) => alias.name === qualifier);
  if (!known) throw lambdaErrors.functionNotFound(`${record.arn}:${qualifier}`);
  return { record, qualifier };
}

function requireConfig(call: LambdaCall): { record: FunctionRecord; config: EventInvokeConfigRecord } {
  const { record, qualifier } = requireQualifier(call);
  const config = record.eventInvokeConfigs?.find((candidate) => candidate.qualifier === qualifier);
  if (!config) {
    throw lambdaErrors.notFound(`The function ${record.arn}:${qualifier} doesn't have an EventInvokeConfig`);
  }
  return { record, config };
}

function applySettings(call: LambdaCall, config: EventInvokeConfigRecord): void {
  const { MaximumRetryAttempts: retries, MaximumEventAgeInSeconds: age, DestinationConfig } = call.input;
  if (retries !== undefined) {
    config.maximumRetryAttempts = inRange(retries, 'maximumRetryAttempts', 0, 2);
  }
  if (age !== undefined) {
    config.maximumEventAgeInSeconds = inRange(age, 'maximumEventAgeInSeconds', 60, 21600);
  }
  if (DestinationConfig !== undefined) {
    config.destinationConfig = destinations(DestinationConfig);
  }
}

function inRange(value: unknown, member: string, min: number, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  const constraint =
    typeof value === 'number' && value < min
      ? `Member must have value greater than or equal to ${min}`
      : `Member must have value less than or equal to ${max}`;
  throw lambdaErrors.validation(member, value, constraint);
}

/** OnSuccess / OnFailure, each an ARN when given. */
function destinations(value: unknown): Record<string, unknown> {
  const config = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    { Destination?: unknown } | undefined
  >;
  for (const [which, target] of Object.entries(config)) {
    const arn = target?.Destination;
    if (arn !== undefined && (typeof arn !== 'string' || !arn.startsWith('arn:'))) {
      throw lambdaErrors.invalid(`The provided destination config ${which} is invalid: ${String(arn)}`);
    }
  }
  return config;
}

function view(record: FunctionRecord, config: EventInvokeConfigRecord): Record<string, unknown> {
  return {
    LastModified: config.lastModified / 1000,
    FunctionArn: `${record.arn}:${config.qualifier}`,
    ...(config.maximumRetryAttempts !== undefined && { MaximumRetryAttempts: config.maximumRetryAttempts }),
    ...(config.maximumEventAgeInSeconds !== undefined && {
      MaximumEventAgeInSeconds: config.maximumEventAgeInSeconds,
    }),
    DestinationConfig: config.destinationConfig ?? {},
  };
}

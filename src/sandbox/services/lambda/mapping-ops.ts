import { randomUUID } from 'node:crypto';
import { parsePattern, PatternError } from '../../patterns/event-pattern.js';
import {
  functionArn,
  parseFunctionName,
  requiredMember,
  stringMember,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { lambdaErrors } from './lambda-errors.js';
import type { MappingRecord } from './model.js';

/**
 * Event source mappings: configuration here; the pollers that read the source and invoke
 * the function are in event-sources/.
 */

/** Settings kept as given and answered back (the API's member names). */
const SETTINGS = [
  'FilterCriteria',
  'FunctionResponseTypes',
  'BisectBatchOnFunctionError',
  'MaximumRetryAttempts',
  'MaximumRecordAgeInSeconds',
  'DestinationConfig',
  'ParallelizationFactor',
  'TumblingWindowInSeconds',
  'ScalingConfig',
  'StartingPositionTimestamp',
  'Queues',
  'Topics',
  'KMSKeyArn',
  'MetricsConfig',
] as const;

export type MappingSource = 'sqs' | 'dynamodb' | 'kinesis' | 'other';

export function sourceKind(arn: string | undefined): MappingSource {
  const service = arn?.split(':')[2];
  return service === 'sqs' || service === 'dynamodb' || service === 'kinesis' ? service : 'other';
}

export const createEventSourceMapping: LambdaHandler = async (call) => {
  const mapping: MappingRecord = {
    uuid: randomUUID(),
    region: call.region,
    functionArn: targetFunction(call, requiredMember(call.input, 'FunctionName')),
    enabled: true,
    lastModified: call.now,
  };
  const source = stringMember(call.input, 'EventSourceArn');
  if (source !== undefined) {
    const duplicate = call.store
      .allMappings()
      .find((other) => other.eventSourceArn === source && other.functionArn === mapping.functionArn);
    if (duplicate) {
      throw lambdaErrors.conflict(
        `An event source mapping with event source ("${source}"), function ("${mapping.functionArn}") already exists. Please update or delete the existing mapping with UUID ${duplicate.uuid}`,
      );
    }
    mapping.eventSourceArn = source;
  }
  const kind = sourceKind(source);
  if (
    (kind === 'dynamodb' || kind === 'kinesis') &&
    stringMember(call.input, 'StartingPosition') === undefined
  ) {
    throw lambdaErrors.invalid(
      '1 validation error detected: StartingPosition must be set for a stream source.',
    );
  }
  apply(call, mapping);
  await call.store.saveMapping(mapping);
  return mappingView(mapping, 'Creating');
};

export const getEventSourceMapping: LambdaHandler = async (call) =>
  mappingView(requireMapping(call), undefined);

export const listEventSourceMappings: LambdaHandler = async (call) => {
  const source = call.query.get('EventSourceArn');
  const target = call.query.get('FunctionName');
  const targetName = target === null ? undefined : parseFunctionName(target).name;
  const mappings = call.store
    .allMappings()
    .filter((mapping) => mapping.region === call.region)
    .filter((mapping) => source === null || mapping.eventSourceArn === source)
    .filter(
      (mapping) => targetName === undefined || parseFunctionName(mapping.functionArn).name === targetName,
    );
  return { EventSourceMappings: mappings.map((mapping) => mappingView(mapping, undefined)) };
};

export const updateEventSourceMapping: LambdaHandler = async (call) => {
  const mapping = requireMapping(call);
  const target = stringMember(call.input, 'FunctionName');
  if (target !== undefined) mapping.functionArn = targetFunction(call, target);
  apply(call, mapping);
  mapping.lastModified = call.now;
  await call.store.saveMapping(mapping);
  return mappingView(mapping, 'Updating');
};

export const deleteEventSourceMapping: LambdaHandler = async (call) => {
  const mapping = requireMapping(call);
  await call.store.deleteMapping(mapping);
  return mappingView(mapping, 'Deleting');
};

function requireMapping(call: LambdaCall): MappingRecord {
  const uuid = call.labels.UUID ?? '';
  const mapping = call.store.mapping(uuid);
  if (!mapping || mapping.region !== call.region) {
    throw lambdaErrors.notFound(
      `The resource you requested does not exist. (Service: Lambda, Status Code: 404, Request ID: ${uuid})`,
    );
  }
  return mapping;
}

function targetFunction(call: LambdaCall, name: string): string {
  const parsed = parseFunctionName(name);
  const record = call.store.function(call.region, parsed.name);
  if (!record) throw lambdaErrors.functionNotFound(functionArn(call, parsed.name));
  return parsed.qualifier === undefined ? record.arn : `${record.arn}:${parsed.qualifier}`;
}

function apply(call: LambdaCall, mapping: MappingRecord): void {
  const input = call.input;
  if (input.BatchSize !== undefined) mapping.batchSize = Number(input.BatchSize);
  if (typeof input.Enabled === 'boolean') mapping.enabled = input.Enabled;
  const position = stringMember(input, 'StartingPosition');
  if (position !== undefined) mapping.startingPosition = position;
  if (input.MaximumBatchingWindowInSeconds !== undefined) {
    mapping.maximumBatchingWindowInSeconds = Number(input.MaximumBatchingWindowInSeconds);
  }
  const settings = { ...mapping.settings };
  for (const name of SETTINGS) if (input[name] !== undefined) settings[name] = input[name];
  for (const filter of (settings.FilterCriteria as { Filters?: Array<{ Pattern?: string }> } | undefined)
    ?.Filters ?? []) {
    try {
      parsePattern(filter.Pattern ?? '');
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      throw lambdaErrors.invalid(`Invalid filter pattern definition. ${error.message}`);
    }
  }
  mapping.settings = settings;
  const kind = sourceKind(mapping.eventSourceArn);
  const batchSize = mapping.batchSize ?? defaultBatchSize(kind);
  if (kind === 'sqs' && batchSize > 10 && !(mapping.maximumBatchingWindowInSeconds ?? 0)) {
    throw lambdaErrors.invalid(
      'Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10',
    );
  }
}

export function defaultBatchSize(kind: MappingSource): number {
  return kind === 'sqs' ? 10 : 100;
}

/** The mapping as the API answers it, Lambda's defaults filled in for its kind of source. */
export function mappingView(mapping: MappingRecord, transition: string | undefined): Record<string, unknown> {
  const kind = sourceKind(mapping.eventSourceArn);
  const stream = kind === 'dynamodb' || kind === 'kinesis';
  return {
    UUID: mapping.uuid,
    EventSourceMappingArn: `arn:aws:lambda:${mapping.region}:${mapping.functionArn.split(':')[4]}:event-source-mapping:${mapping.uuid}`,
    FunctionArn: mapping.functionArn,
    ...(mapping.eventSourceArn ? { EventSourceArn: mapping.eventSourceArn } : {}),
    BatchSize: mapping.batchSize ?? defaultBatchSize(kind),
    ...(mapping.startingPosition ? { StartingPosition: mapping.startingPosition } : {}),
    MaximumBatchingWindowInSeconds: mapping.maximumBatchingWindowInSeconds ?? 0,
    ...(stream
      ? {
          MaximumRetryAttempts: -1,
          MaximumRecordAgeInSeconds: -1,
          BisectBatchOnFunctionError: false,
          ParallelizationFactor: 1,
          DestinationConfig: { OnFailure: {} },
        }
      : {}),
    FunctionResponseTypes: [],
    ...mapping.settings,
    LastModified: mapping.lastModified / 1000,
    LastProcessingResult: mapping.lastProcessingResult ?? 'No records processed',
    State: transition ?? (mapping.enabled ? 'Enabled' : 'Disabled'),
    StateTransitionReason: 'USER_INITIATED',
  };
}

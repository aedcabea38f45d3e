import { randomUUID } from 'node:crypto';
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

/** Event source mappings (the poller itself is not emulated: a mapping is configuration). */

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
  apply(call, mapping);
  await call.store.saveMapping(mapping);
  return view(mapping, 'Creating');
};

export const getEventSourceMapping: LambdaHandler = async (call) => view(requireMapping(call), undefined);

export const updateEventSourceMapping: LambdaHandler = async (call) => {
  const mapping = requireMapping(call);
  const target = stringMember(call.input, 'FunctionName');
  if (target !== undefined) mapping.functionArn = targetFunction(call, target);
  apply(call, mapping);
  mapping.lastModified = call.now;
  await call.store.saveMapping(mapping);
  return view(mapping, 'Updating');
};

export const deleteEventSourceMapping: LambdaHandler = async (call) => {
  const mapping = requireMapping(call);
  await call.store.deleteMapping(mapping);
  return view(mapping, 'Deleting');
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
}

function view(mapping: MappingRecord, transition: string | undefined): Record<string, unknown> {
  return {
    UUID: mapping.uuid,
    EventSourceMappingArn: `arn:aws:lambda:${mapping.region}:${mapping.functionArn.split(':')[4]}:event-source-mapping:${mapping.uuid}`,
    FunctionArn: mapping.functionArn,
    ...(mapping.eventSourceArn ? { EventSourceArn: mapping.eventSourceArn } : {}),
    ...(mapping.batchSize !== undefined ? { BatchSize: mapping.batchSize } : {}),
    ...(mapping.startingPosition ? { StartingPosition: mapping.startingPosition } : {}),
    ...(mapping.maximumBatchingWindowInSeconds !== undefined
      ? { MaximumBatchingWindowInSeconds: mapping.maximumBatchingWindowInSeconds }
      : {}),
    LastModified: mapping.lastModified / 1000,
    State: transition ?? (mapping.enabled ? 'Enabled' : 'Disabled'),
  };
}

import {
  functionArn,
  parseFunctionName,
  requireFunction,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { stringRecord } from './function-ops.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRecord } from './model.js';

/** Tags and reserved concurrency: function-level settings outside the configuration. */

function taggedFunction(call: LambdaCall): FunctionRecord {
  const arn = call.labels.Resource ?? '';
  const { name } = parseFunctionName(arn);
  const record = call.store.function(call.region, name);
  if (!record) throw lambdaErrors.functionNotFound(functionArn(call, name));
  return record;
}

export const tagResource: LambdaHandler = async (call) => {
  const record = taggedFunction(call);
  record.tags = { ...record.tags, ...stringRecord(call.input.Tags) };
  await call.store.saveFunction(record);
  return undefined;
};

export const untagResource: LambdaHandler = async (call) => {
  const record = taggedFunction(call);
  for (const key of call.query.getAll('tagKeys')) delete record.tags[key];
  await call.store.saveFunction(record);
  return undefined;
};

export const listTags: LambdaHandler = async (call) => ({ Tags: taggedFunction(call).tags });

export const putFunctionConcurrency: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  const value = Number(call.input.ReservedConcurrentExecutions);
  if (!Number.isInteger(value) || value < 0) {
    throw lambdaErrors.validation(
      'reservedConcurrentExecutions',
      call.input.ReservedConcurrentExecutions,
      'Member must have value greater than or equal to 0',
    );
  }
  record.reservedConcurrency = value;
  await call.store.saveFunction(record);
  return { ReservedConcurrentExecutions: value };
};

export const deleteFunctionConcurrency: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  delete record.reservedConcurrency;
  await call.store.saveFunction(record);
  return undefined;
};

export const getFunctionConcurrency: LambdaHandler = async (call) => {
  const { record } = requireFunction(call);
  return record.reservedConcurrency === undefined
    ? {}
    : { ReservedConcurrentExecutions: record.reservedConcurrency };
};

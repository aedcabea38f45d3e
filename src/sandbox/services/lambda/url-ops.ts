import {
  lambdaTimestamp,
  requireFunction,
  stringMember,
  type LambdaCall,
  type LambdaHandler,
} from './call.js';
import { randomString } from '../../ids.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRecord, UrlRecord } from './model.js';

/** Function URLs: one per function or alias (`Qualifier`). */

const AUTH_TYPES = new Set(['NONE', 'AWS_IAM']);

export const createFunctionUrlConfig: LambdaHandler = async (call) => {
  const { record, qualifier } = requireFunction(call);
  if (record.urls.some((url) => url.qualifier === qualifier)) {
    throw lambdaErrors.conflict(
      `Failed to create function url config for [functionArn = ${target(record, qualifier)}]. Error message:  FunctionUrlConfig exists for this Lambda function`,
    );
  }
  if (qualifier !== undefined && !record.aliases.some((alias) => alias.name === qualifier)) {
    throw lambdaErrors.notFound(`Function not found: ${target(record, qualifier)}`);
  }
  const url: UrlRecord = {
    ...(qualifier !== undefined ? { qualifier } : {}),
    authType: authType(call),
    invokeMode: stringMember(call.input, 'InvokeMode') ?? 'BUFFERED',
    urlId: randomString(32, 'abcdefghijklmnopqrstuvwxyz0123456789'),
    createdAt: lambdaTimestamp(call.now),
    lastModified: lambdaTimestamp(call.now),
  };
  if (call.input.Cors !== undefined) url.cors = call.input.Cors as Record<string, unknown>;
  record.urls.push(url);
  await call.store.saveFunction(record);
  return view(call, record, url);
};

export const getFunctionUrlConfig: LambdaHandler = async (call) => {
  const { record, url } = requireUrl(call);
  return view(call, record, url);
};

export const updateFunctionUrlConfig: LambdaHandler = async (call) => {
  const { record, url } = requireUrl(call);
  if (call.input.AuthType !== undefined) url.authType = authType(call);
  if (call.input.Cors !== undefined) url.cors = call.input.Cors as Record<string, unknown>;
  const invokeMode = stringMember(call.input, 'InvokeMode');
  if (invokeMode !== undefined) url.invokeMode = invokeMode;
  url.lastModified = lambdaTimestamp(call.now);
  await call.store.saveFunction(record);
  return view(call, record, url);
};

export const deleteFunctionUrlConfig: LambdaHandler = async (call) => {
  const { record, url } = requireUrl(call);
  record.urls = record.urls.filter((candidate) => candidate !== url);
  await call.store.saveFunction(record);
  return undefined;
};

function requireUrl(call: LambdaCall): { record: FunctionRecord; url: UrlRecord } {
  const { record, qualifier } = requireFunction(call);
  const url = record.urls.find((candidate) => candidate.qualifier === qualifier);
  if (!url) throw lambdaErrors.notFound('The resource you requested does not exist.');
  return { record, url };
}

function authType(call: LambdaCall): string {
  const value = stringMember(call.input, 'AuthType');
  if (value === undefined || !AUTH_TYPES.has(value)) {
    throw lambdaErrors.validation('authType', value, 'Member must satisfy enum value set: [AWS_IAM, NONE]');
  }
  return value;
}

function target(record: FunctionRecord, qualifier: string | undefined): string {
  return qualifier === undefined ? record.arn : `${record.arn}:${qualifier}`;
}

function view(call: LambdaCall, record: FunctionRecord, url: UrlRecord): Record<string, unknown> {
  return {
    FunctionUrl: `https://${url.urlId}.lambda-url.${call.region}.on.aws/`,
    FunctionArn: target(record, url.qualifier),
    AuthType: url.authType,
    ...(url.cors ? { Cors: url.cors } : {}),
    CreationTime: url.createdAt,
    LastModifiedTime: url.lastModified,
    InvokeMode: url.invokeMode,
  };
}

import type { JsonObject } from '../provider.js';

export type RequestType = 'Create' | 'Update' | 'Delete';

/** The event CloudFormation sends a custom resource's handler, field for field. */
export interface CustomResourceRequest {
  RequestType: RequestType;
  ServiceToken: string;
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  ResourceType: string;
  PhysicalResourceId?: string;
  ResourceProperties: JsonObject;
  OldResourceProperties?: JsonObject;
}

export interface RequestInput {
  requestType: RequestType;
  serviceToken: string;
  responseUrl: string;
  stackId: string;
  requestId: string;
  logicalId: string;
  resourceType: string;
  /** Update and Delete only. */
  physicalId?: string;
  properties: JsonObject;
  /** Update only. */
  oldProperties?: JsonObject;
}

/** CloudFormation's request: properties with every scalar a string, Old ones on an Update, the physical id after a Create. */
export function buildRequest(input: RequestInput): CustomResourceRequest {
  return {
    RequestType: input.requestType,
    ServiceToken: input.serviceToken,
    ResponseURL: input.responseUrl,
    StackId: input.stackId,
    RequestId: input.requestId,
    LogicalResourceId: input.logicalId,
    ResourceType: input.resourceType,
    ...(input.requestType !== 'Create' && input.physicalId !== undefined
      ? { PhysicalResourceId: input.physicalId }
      : {}),
    ResourceProperties: stringifyScalars(input.properties) as JsonObject,
    ...(input.requestType === 'Update' && input.oldProperties
      ? { OldResourceProperties: stringifyScalars(input.oldProperties) as JsonObject }
      : {}),
  };
}

/**
 * CloudFormation hands a handler every scalar as a string (`5` → `"5"`, `true` → `"true"`),
 * at any depth; objects and lists keep their shape.
 */
export function stringifyScalars(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stringifyScalars);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, stringifyScalars(inner)]));
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return value;
}

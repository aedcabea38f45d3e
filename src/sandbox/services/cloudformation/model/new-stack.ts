import { randomUUID } from 'node:crypto';
import { partitionForRegion } from '../../../../template/index.js';
import type { StackRecord, StackStatus } from './types.js';

export interface NewStackFields {
  stackName: string;
  region: string;
  accountId: string;
  status: StackStatus;
  disableRollback?: boolean;
  terminationProtection?: boolean;
  timeoutInMinutes?: number;
  parentId?: string;
  rootId?: string;
}

/** A stack record with CloudFormation's id (`arn:...:stack/<name>/<uuid>`) and nothing deployed yet. */
export function newStack(fields: NewStackFields): StackRecord {
  const { stackName, region, accountId } = fields;
  return {
    stackId: `arn:${partitionForRegion(region)}:cloudformation:${region}:${accountId}:stack/${stackName}/${randomUUID()}`,
    stackName,
    region,
    accountId,
    status: fields.status,
    creationTime: new Date().toISOString(),
    disableRollback: fields.disableRollback ?? false,
    terminationProtection: fields.terminationProtection ?? false,
    ...(fields.timeoutInMinutes !== undefined ? { timeoutInMinutes: fields.timeoutInMinutes } : {}),
    ...(fields.parentId !== undefined ? { parentId: fields.parentId } : {}),
    ...(fields.rootId !== undefined ? { rootId: fields.rootId } : {}),
    templateBody: '',
    parameters: [],
    tags: [],
    capabilities: [],
    notificationArns: [],
    outputs: [],
    resources: {},
    changeSets: [],
  };
}

import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../../service-module.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionRecord } from './model.js';
import type { RoleAges } from '../../policy/role-ages.js';
import type { LambdaStore } from './store.js';

/** Everything a Lambda operation handler needs for one request. */
export interface LambdaCall {
  store: LambdaStore;
  context: SandboxContext;
  roles: RoleAges;
  region: string;
  /** The request's account (`SandboxRequest.accountId`). */
  accountId: string;
  labels: Record<string, string>;
  query: URLSearchParams;
  input: Record<string, unknown>;
  now: number;
}

/** A handler's JSON output; undefined for the bodiless (204) operations. */
export type LambdaHandler = (call: LambdaCall) => Promise<unknown>;

export function functionArn(call: Pick<LambdaCall, 'accountId' | 'region'>, name: string): string {
  return `arn:aws:lambda:${call.region}:${call.accountId}:function:${name}`;
}

/** `name`, `name:qualifier`, `123456789012:function:name[:q]` or the full ARN. */
export function parseFunctionName(value: string): { name: string; qualifier?: string } {
  const parts = value.split(':');
  const at = parts.indexOf('function');
  const [name, qualifier] = at >= 0 ? [parts[at + 1] ?? '', parts[at + 2]] : [parts[0]!, parts[1]];
  return qualifier === undefined ? { name } : { name, qualifier };
}

/** The addressed function and qualifier (from the name or the `Qualifier` query/body member). */
export function requireFunction(call: LambdaCall): { record: FunctionRecord; qualifier?: string } {
  const parsed = parseFunctionName(call.labels.FunctionName ?? '');
  const record = call.store.function(call.region, parsed.name);
  if (!record) throw lambdaErrors.functionNotFound(functionArn(call, parsed.name));
  const explicit = call.query.get('Qualifier') ?? stringMember(call.input, 'Qualifier');
  const qualifier = parsed.qualifier ?? explicit;
  return qualifier === undefined ? { record } : { record, qualifier };
}

/** Lambda refuses a change while the function is Pending or another update is running. */
export function requireIdle(record: FunctionRecord, now: number): void {
  if (now < record.activeAt) throw lambdaErrors.pending();
  if (record.updateDoneAt !== undefined && now < record.updateDoneAt) {
    throw lambdaErrors.updateInProgress(record.arn);
  }
}

export function stringMember(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredMember(input: Record<string, unknown>, name: string): string {
  const value = stringMember(input, name);
  if (value === undefined || value === '') {
    throw lambdaErrors.invalid(
      `1 validation error detected: Value null at '${name}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value;
}

/** Lambda's LastModified format: `2024-05-01T12:00:00.000+0000`. */
export function lambdaTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

export const newRevisionId = randomUUID;

import { SandboxError } from '../../errors.js';
import { el } from '../../xml.js';

/** Members whose values are numbers or booleans on the wire; every other value is a string. */
const NUMBERS = new Set([
  'Port',
  'Priority',
  'Weight',
  'Order',
  'DurationSeconds',
  'HealthCheckIntervalSeconds',
  'HealthCheckTimeoutSeconds',
  'HealthyThresholdCount',
  'UnhealthyThresholdCount',
  'SessionTimeout',
]);
const BOOLEANS = new Set([
  'HealthCheckEnabled',
  'Enabled',
  'UseExistingClientSecret',
  'IgnoreClientCertificateExpiry',
]);

/**
 * The query protocol's nested parameters (`DefaultActions.member.1.ForwardConfig.TargetGroups.member.1.Weight`)
 * as the object they encode: `member.N` lists become arrays, in the names CloudFormation's
 * ELBv2 types use (the API's and the template's names are the same).
 */
export function paramObject(params: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, raw] of params) {
    if (key === 'Action' || key === 'Version') continue;
    const parts = key.split('.');
    let node: Record<string, unknown> | unknown[] = root;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      const last = index === parts.length - 1;
      if (part === 'member' && Array.isArray(node)) continue;
      const slot: string | number = Array.isArray(node) ? Number(part) - 1 : part;
      const nextIsList = parts[index + 1] === 'member';
      const lastKey = parts[index - (Array.isArray(node) ? 2 : 0)] ?? part;
      if (last) {
        (node as Record<string | number, unknown>)[slot] = typed(Array.isArray(node) ? lastKey : part, raw);
        break;
      }
      const holder = node as Record<string | number, unknown>;
      holder[slot] ??= nextIsList ? [] : {};
      node = holder[slot] as Record<string, unknown> | unknown[];
    }
  }
  return root;
}

function typed(name: string, raw: string): unknown {
  if (NUMBERS.has(name)) return Number(raw);
  if (BOOLEANS.has(name)) return raw === 'true';
  return raw;
}

/** A value as the query protocol's XML answers it: lists as `member` elements. */
export function xmlOf(name: string, value: unknown): string {
  if (Array.isArray(value))
    return el(
      name,
      value.map((item) => xmlOf('member', item)),
    );
  if (value !== null && typeof value === 'object') {
    return el(
      name,
      Object.entries(value)
        .filter(([, inner]) => inner !== undefined)
        .map(([key, inner]) => xmlOf(key, inner)),
    );
  }
  return el(name, value as string | number | boolean);
}

export const validation = (message: string) => new SandboxError('ValidationError', message, 400);

export function requiredText(input: Record<string, unknown>, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '') validationMissing(name);
  return value as string;
}

function validationMissing(name: string): never {
  throw validation(
    `1 validation error detected: Value null at '${name.charAt(0).toLowerCase()}${name.slice(1)}' failed to satisfy constraint: Member must not be null`,
  );
}

/** `{key: value}` as ELB's attribute lists. */
export function attributeList(set: Record<string, string>): Array<{ Key: string; Value: string }> {
  return Object.entries(set).map(([Key, Value]) => ({ Key, Value }));
}

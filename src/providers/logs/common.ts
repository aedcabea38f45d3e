import { awsErrorCode } from '../../aws/error-class.js';
import type { JsonObject } from '../provider.js';

export function isNotFound(error: unknown): boolean {
  return awsErrorCode(error) === 'ResourceNotFoundException';
}

export function changed(before: JsonObject, after: JsonObject, key: string): boolean {
  return JSON.stringify(before[key]) !== JSON.stringify(after[key]);
}

export function optionalText(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

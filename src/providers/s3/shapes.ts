import type { JsonObject } from '../provider.js';

/** Helpers for mapping CloudFormation's bucket configuration shapes to the S3 API's. */

export function objectOf(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

export function listOf(value: unknown): JsonObject[] {
  return Array.isArray(value) ? (value as JsonObject[]).map(objectOf) : [];
}

/** CloudFormation gives Integer and Boolean values as strings sometimes ("30", "true"). */
export function int(value: unknown): number | undefined {
  return value === undefined || value === null ? undefined : Number(value);
}

export function bool(value: unknown): boolean | undefined {
  return value === undefined || value === null ? undefined : String(value) === 'true';
}

export function text(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

/** An object without its undefined members (the SDK serializes what is present). */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Whether every key of `value`, and of each nested object the `shape` names, is known. */
export type Shape = { [key: string]: true | Shape };

export function fitsShape(value: unknown, shape: Shape): boolean {
  if (Array.isArray(value)) return value.every((item) => fitsShape(item, shape));
  if (typeof value !== 'object' || value === null) return true;
  return Object.entries(value).every(([key, child]) => {
    const rule = shape[key];
    if (rule === undefined) return false;
    return rule === true || fitsShape(child, rule);
  });
}

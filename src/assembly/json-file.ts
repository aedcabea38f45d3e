import { existsSync, readFileSync } from 'node:fs';
import { CdkdError, type ErrorCode } from '../errors.js';

/** Reads a JSON object file of the project; a missing file reads as `{}`. */
export function readJsonObject(file: string, code: ErrorCode): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new CdkdError(code, `${file} is not valid JSON.`, { hint: `Fix the JSON in ${file}.`, cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CdkdError(code, `${file} must hold a JSON object.`, { hint: `Fix ${file}.` });
  }
  return value as Record<string, unknown>;
}

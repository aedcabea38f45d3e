import { iamErrors } from './iam-errors.js';
import type { Tag } from './model.js';

/** Reads IAM's query parameters (`Name`, `List.member.N`, `Tags.member.N.Key`). */
export class Params {
  constructor(private readonly params: URLSearchParams) {}

  optional(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  required(name: string): string {
    const value = this.params.get(name);
    if (value === null) {
      const member = name.charAt(0).toLowerCase() + name.slice(1);
      throw iamErrors.validation(
        `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`,
      );
    }
    return value;
  }

  members(name: string): string[] {
    const out: string[] = [];
    for (let i = 1; this.params.has(`${name}.member.${i}`); i++)
      out.push(this.params.get(`${name}.member.${i}`)!);
    return out;
  }

  tags(name = 'Tags'): Tag[] {
    const out: Tag[] = [];
    for (let i = 1; this.params.has(`${name}.member.${i}.Key`); i++) {
      out.push({
        Key: this.params.get(`${name}.member.${i}.Key`)!,
        Value: this.params.get(`${name}.member.${i}.Value`) ?? '',
      });
    }
    return out;
  }
}

const NAME = /^[\w+=,.@-]+$/;

/** IAM names: `[\w+=,.@-]`, 1..max characters. */
export function checkName(value: string, member: string, max: number): string {
  if (value.length < 1 || value.length > max) {
    throw iamErrors.validation(
      `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: Member must have length less than or equal to ${max}`,
    );
  }
  if (!NAME.test(value)) {
    throw iamErrors.validation(
      `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]+`,
    );
  }
  return value;
}

export function checkPath(value: string | undefined): string {
  const path = value ?? '/';
  if (path.length > 512 || !/^\/(?:[\u0021-\u007E]*\/)?$/.test(path)) {
    throw iamErrors.validation(
      `The specified value for path is invalid. It must begin and end with / and contain only alphanumeric characters and/or / characters.`,
    );
  }
  return path;
}

/** A policy document must be a JSON object with a Statement; trust policies also need a Principal. */
export function checkPolicyDocument(document: string, options: { trust?: boolean } = {}): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(document);
  } catch {
    throw iamErrors.malformedPolicy('This policy contains invalid Json');
  }
  if (typeof parsed !== 'object' || parsed === null || !('Statement' in parsed)) {
    throw iamErrors.malformedPolicy('Syntax errors in policy.');
  }
  const statement = (parsed as { Statement: unknown }).Statement;
  const statements = Array.isArray(statement) ? statement : [statement];
  for (const entry of statements) {
    if (typeof entry !== 'object' || entry === null || !('Effect' in entry)) {
      throw iamErrors.malformedPolicy('Syntax errors in policy.');
    }
    if (options.trust && !('Principal' in entry)) {
      throw iamErrors.malformedPolicy(
        'AssumeRolepolicy contained an invalid principal: Missing required field Principal',
      );
    }
  }
  return document;
}

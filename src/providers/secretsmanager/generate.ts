import type { GetRandomPasswordCommandInput } from '@aws-sdk/client-secrets-manager';
import { CdkdError } from '../../errors.js';
import type { JsonObject } from '../provider.js';

const BOOLEAN_OPTIONS = [
  'ExcludeLowercase',
  'ExcludeNumbers',
  'ExcludePunctuation',
  'ExcludeUppercase',
  'IncludeSpace',
  'RequireEachIncludedType',
] as const;

/** GenerateSecretString's password options as GetRandomPassword input (booleans may arrive as strings). */
export function passwordRequest(spec: JsonObject): GetRandomPasswordCommandInput {
  const input: GetRandomPasswordCommandInput = {};
  if (spec.PasswordLength !== undefined) input.PasswordLength = Number(spec.PasswordLength);
  if (spec.ExcludeCharacters !== undefined) input.ExcludeCharacters = String(spec.ExcludeCharacters);
  for (const option of BOOLEAN_OPTIONS) {
    if (spec[option] !== undefined) input[option] = String(spec[option]) === 'true';
  }
  return input;
}

/**
 * The secret string CloudFormation stores for GenerateSecretString: the password alone, or
 * SecretStringTemplate (a JSON object) with the password under GenerateStringKey. The two
 * template options go together, as CloudFormation requires.
 */
export function secretStringFor(spec: JsonObject, password: string): string {
  const template = spec.SecretStringTemplate;
  const key = spec.GenerateStringKey;
  if (template === undefined && key === undefined) return password;
  if (template === undefined || key === undefined) {
    throw new CdkdError(
      'SECRET_TEMPLATE_INVALID',
      'GenerateSecretString needs both SecretStringTemplate and GenerateStringKey, or neither.',
      { hint: 'Set both (the password goes under GenerateStringKey in the template), or remove both.' },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(template));
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CdkdError('SECRET_TEMPLATE_INVALID', 'SecretStringTemplate is not a JSON object.', {
      hint: 'Give SecretStringTemplate as a JSON object string, e.g. {"username":"admin"}.',
    });
  }
  return JSON.stringify({ ...(parsed as JsonObject), [String(key)]: password });
}

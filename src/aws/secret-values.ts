import { CdkdError } from '../errors.js';
import type { AwsClients } from './client-factory.js';
import { classifyAwsError } from './error-class.js';

export interface SecretReference {
  secretId: string;
  jsonKey?: string;
  versionStage?: string;
  versionId?: string;
}

export type SecretReader = (reference: SecretReference) => Promise<string>;

/** Reads `{{resolve:secretsmanager:...}}` values in the deploy region, as CloudFormation does. */
export function secretValueReader(clients: AwsClients, region: string): SecretReader {
  return async (reference) => {
    // Loaded on the first reference: most templates have none.
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const secrets = await clients.client(SecretsManagerClient, region);
    let text: string;
    try {
      const response = await secrets.send(
        new GetSecretValueCommand({
          SecretId: reference.secretId,
          ...(reference.versionStage ? { VersionStage: reference.versionStage } : {}),
          ...(reference.versionId ? { VersionId: reference.versionId } : {}),
        }),
      );
      text = response.SecretString ?? '';
    } catch (error) {
      if (classifyAwsError(error) === 'not-found') {
        throw new CdkdError(
          'SECRET_NOT_FOUND',
          `The secret ${reference.secretId} does not exist in ${region}.`,
          {
            hint: 'Create it, or fix the {{resolve:secretsmanager:...}} reference.',
            cause: error,
          },
        );
      }
      throw error;
    }
    if (!reference.jsonKey) return text;
    return jsonField(text, reference);
  };
}

function jsonField(text: string, reference: SecretReference): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const value =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)[reference.jsonKey!]
      : undefined;
  if (value === undefined) {
    throw new CdkdError(
      'SECRET_KEY_NOT_FOUND',
      `The secret ${reference.secretId} has no JSON key ${reference.jsonKey}.`,
      {
        hint: 'Check the key name in the {{resolve:secretsmanager:...}} reference against the secret value.',
      },
    );
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

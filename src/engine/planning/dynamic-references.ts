import type { SecretReader, ParameterReader } from '../../aws/index.js';
import { CdkdError } from '../../errors.js';
import { resolveDynamicReferences, type DynamicReferenceResolver } from '../../template/index.js';

/**
 * Spec 001, "Nested stacks": a secret reference written as a name carries no region, so a
 * direct rollback of a nested stack (which cannot know the region its parents read it
 * from) refuses it; the step fails and the journal is kept. An ARN names its region.
 */
export function refusingRegionlessSecrets(
  sendable: (properties: Record<string, unknown>) => Promise<Record<string, unknown>>,
): (properties: Record<string, unknown>) => Promise<Record<string, unknown>> {
  return async (properties) => {
    await resolveDynamicReferences(properties, async (reference) => {
      if (reference.service === 'secretsmanager' && !reference.key.startsWith('arn:')) {
        throw new CdkdError(
          'ROLLBACK_SECRET_REGION_UNKNOWN',
          `The secret reference {{resolve:secretsmanager:${reference.key}:...}} names no region, and a direct rollback of a nested stack cannot tell which region its parent read it from.`,
          {
            hint: 'Set the property yourself, or write the reference as a full secret ARN, then run cdkd rollback again.',
          },
        );
      }
      return '';
    });
    return sendable(properties);
  };
}

/** Resolves `{{resolve:...}}` in a value about to be sent; state keeps the reference itself. */
export function sendableProperties(
  readParameter: ParameterReader,
  readSecret: SecretReader,
): (properties: Record<string, unknown>) => Promise<Record<string, unknown>> {
  const resolver: DynamicReferenceResolver = async (reference) => {
    if (reference.service === 'secretsmanager') {
      return readSecret({
        secretId: reference.key,
        ...(reference.jsonKey ? { jsonKey: reference.jsonKey } : {}),
        ...(reference.versionStage ? { versionStage: reference.versionStage } : {}),
        ...(reference.versionId ? { versionId: reference.versionId } : {}),
      });
    }
    const name = reference.version ? `${reference.key}:${reference.version}` : reference.key;
    return readParameter(name, { decrypt: reference.service === 'ssm-secure' });
  };
  return async (properties) =>
    (await resolveDynamicReferences(properties, resolver)) as Record<string, unknown>;
}

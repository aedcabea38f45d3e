import type { SecretReader } from '../aws/secret-values.js';
import type { ParameterReader } from '../aws/ssm-parameters.js';
import { resolveDynamicReferences, type DynamicReferenceResolver } from '../template/index.js';

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

import type { ParameterReader } from '../aws/ssm-parameters.js';
import { CdkdError } from '../errors.js';
import { resolveDynamicReferences, type DynamicReferenceResolver } from '../template/index.js';

/** Resolves `{{resolve:...}}` in a value about to be sent; state keeps the reference itself. */
export function sendableProperties(
  readParameter: ParameterReader,
): (properties: Record<string, unknown>) => Promise<Record<string, unknown>> {
  const resolver: DynamicReferenceResolver = async (reference) => {
    if (reference.service === 'secretsmanager') {
      throw new CdkdError(
        'DYNAMIC_REFERENCE_UNSUPPORTED',
        `${reference.text}: Secrets Manager references are not supported yet.`,
        {
          hint: 'Pass the value through an SSM SecureString ({{resolve:ssm-secure:...}}) for now.',
        },
      );
    }
    const name = reference.version ? `${reference.key}:${reference.version}` : reference.key;
    return readParameter(name, { decrypt: reference.service === 'ssm-secure' });
  };
  return async (properties) =>
    (await resolveDynamicReferences(properties, resolver)) as Record<string, unknown>;
}

import { CdkdError } from '../../errors.js';

/**
 * Refuses, before anything is touched, every resource whose type neither an SDK provider
 * nor Cloud Control can handle, naming each type and the logical ids that use it.
 */
export function refuseUnsupportedTypes(
  resources: readonly { logicalId: string; type: string }[],
  canHandle: (type: string) => boolean,
): void {
  const unsupported = new Map<string, string[]>();
  for (const { logicalId, type } of resources) {
    if (!canHandle(type)) unsupported.set(type, [...(unsupported.get(type) ?? []), logicalId]);
  }
  if (unsupported.size === 0) return;
  const list = [...unsupported]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, ids]) => `${type} (${ids.sort().join(', ')})`)
    .join('; ');
  throw new CdkdError(
    'UNSUPPORTED_RESOURCE_TYPE',
    `cdkd cannot deploy these resource types: no SDK provider and Cloud Control does not support them: ${list}.`,
    { hint: 'Remove those resources from the stack, or deploy the stack with CloudFormation instead.' },
  );
}

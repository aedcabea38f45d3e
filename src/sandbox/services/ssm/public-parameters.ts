import { publicParameters } from '../../account/public-images.js';
import type { ParameterRecord } from './store.js';

/** When AWS last updated its public parameters, as the sandbox tells it (fixed, so reads are stable). */
const PUBLISHED = Date.parse('2025-02-20T00:00:00.000Z');

/** An AWS public parameter (`/aws/service/...`) of the region as a read-only record; undefined if AWS has none. */
export function publicParameter(region: string, name: string): ParameterRecord | undefined {
  const value = publicParameters(region).get(name);
  if (value === undefined) return undefined;
  return {
    name,
    region,
    type: 'String',
    dataType: 'text',
    tier: 'Standard',
    tags: [],
    versions: [{ version: 1, value, lastModified: PUBLISHED }],
    owner: 'aws',
  };
}

/** Every public parameter of the region, for path reads. */
export function publicParameterRecords(region: string): ParameterRecord[] {
  return [...publicParameters(region).keys()].map((name) => publicParameter(region, name)!);
}

/** AWS's refusal of a name in its reserved namespace, or undefined for a name anyone may write. */
export function reservedNameMessage(name: string): string | undefined {
  // AWS's reserved namespace: `aws` and `ssm` prefixes, with or without the leading slash.
  if (!/^\/?(aws|ssm)/i.test(name)) return undefined;
  return 'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive). If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_';
}

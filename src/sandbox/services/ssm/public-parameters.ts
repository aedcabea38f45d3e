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

import { propertyHash } from '../../src/plan/property-hash.js';
import type { DesiredResource, PlanOptions, RecordedResource } from '../../src/plan/types.js';

/** Every type handled, every change updatable in place: tests override what they exercise. */
export const allProviders: PlanOptions = { canHandle: () => true, providerCanUpdate: () => true };

export function desired(
  logicalId: string,
  type: string,
  properties: Record<string, unknown> = {},
  extra: Partial<DesiredResource> = {},
): DesiredResource {
  return { logicalId, type, properties, dependencies: [], ...extra };
}

/** A record as the last deploy left it: `properties` applied, their hash recorded. */
export function recorded(
  type: string,
  properties: Record<string, unknown> = {},
  extra: Partial<RecordedResource> = {},
): RecordedResource {
  return {
    type,
    physicalId: `${type.split('::')[2]}-phys`,
    properties,
    propertyHash: propertyHash(properties),
    ...extra,
  };
}

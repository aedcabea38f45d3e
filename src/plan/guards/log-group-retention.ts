import type { RecordedResource } from '../types.js';

/**
 * Spec 002 "Log group retention": a positive RetentionInDays in EITHER recorded bag
 * (properties or observedProperties) settles the guard as data-bearing; a zero in one never
 * cancels a positive in the other. Coerced with Number() and kept when finite: wider than
 * CloudFormation's parsing, which can only add refusals.
 */
export function hasPositiveRetention(
  record: Pick<RecordedResource, 'properties' | 'observedProperties'>,
): boolean {
  return [record.properties, record.observedProperties].some((bag) => {
    const days = Number(bag?.['RetentionInDays']);
    return Number.isFinite(days) && days > 0;
  });
}

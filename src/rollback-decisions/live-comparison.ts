import type { LiveResource, ProviderKind } from '../providers/index.js';
import { liveIdentityComparedOnCloudControl, liveIdentityRuleOf } from '../resource-types/index.js';

/** What a fix-forward's live read of the record under the logical id said about the earlier resource. */
export type LiveComparison =
  /** The record's resource is the earlier one after all. */
  | 'same'
  /** Proven a different resource. */
  | 'different'
  /** The earlier resource is already gone. */
  | 'earlier-gone'
  /** A read failed, the record's resource was not found, or nothing tells them apart. */
  | 'unproven';

/** What a provider's read returned: the resource, `gone` when AWS reports it absent, `unreadable` when the read failed. */
export type LiveRead = LiveResource | 'gone' | 'unreadable';

/** Whether a later successful deploy reads `type` live; every other type lands in the warning. */
export function comparesLiveIdentity(type: string, provisionedBy?: ProviderKind): boolean {
  if (provisionedBy === 'cc-api' && !liveIdentityComparedOnCloudControl(type)) return false;
  return liveIdentityRuleOf(type) !== undefined;
}

/**
 * The verdict of the two live reads. The record's resource must read back first: a read
 * that fails, or a record whose resource is not found, proves nothing either way.
 */
export function compareLive(type: string, earlier: LiveRead, record: LiveRead): LiveComparison {
  const rule = liveIdentityRuleOf(type);
  if (!rule || record === 'gone' || record === 'unreadable' || earlier === 'unreadable') return 'unproven';
  if (earlier === 'gone') return 'earlier-gone';
  if (rule === 'distinct-ids') return 'different';
  if (rule.engine && (keyOf(earlier, 'Engine') !== rule.engine || keyOf(record, 'Engine') !== rule.engine)) {
    return 'unproven';
  }
  const a = keyOf(earlier, rule.key);
  const b = keyOf(record, rule.key);
  if (a === undefined || b === undefined) return 'unproven';
  return a === b ? 'same' : 'different';
}

function keyOf(resource: LiveResource, key: string): string | undefined {
  const value = resource.creationIdentity?.[key] ?? resource.attributes[key] ?? resource.properties[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

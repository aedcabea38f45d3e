import { canonicalJson } from './property-hash.js';

/**
 * Seed 004: what an update does to one resource. A resource whose resolved properties hash
 * the same as the recorded hash is skipped, and so is one recorded before hashes were kept
 * (an empty hash), so re-running an unchanged template is never a destructive replace.
 * A changed one is replaced when an immutable property changed or its type has no update,
 * else updated in place; a replacement under UpdateReplacePolicy Retain or Snapshot keeps
 * the old resource, orphaned.
 */

/** The identity properties whose change forces a replacement, whatever the type. */
export const IDENTITY_PROPERTIES: readonly string[] = [
  'BucketName',
  'TableName',
  'KeySchema',
  'QueueName',
  'FifoQueue',
  'TopicName',
  'Name',
  'LogGroupName',
  'RoleName',
  'FunctionName',
  'GroupName',
];

export interface UpdateInput {
  /** The hash stored with the stack resource ('' for a legacy record). */
  recordedHash: string;
  newHash: string;
  oldProperties: Readonly<Record<string, unknown>>;
  newProperties: Readonly<Record<string, unknown>>;
  /** The type's create-only properties (its schema's). */
  createOnly: readonly string[];
  /** Whether the type's handler can update a resource in place. */
  hasUpdate: boolean;
  updateReplacePolicy?: string;
}

export type UpdateDecision =
  | { strategy: 'skip'; why: 'unchanged' | 'legacy-hash' }
  | { strategy: 'in-place'; changed: string[] }
  | {
      strategy: 'replace';
      changed: string[];
      /** The properties that force it; empty when the type has no update. */
      immutable: string[];
      /** UpdateReplacePolicy Retain or Snapshot: the old resource is orphaned, not deleted. */
      retainOld: boolean;
    };

export function decideUpdate(input: UpdateInput): UpdateDecision {
  if (input.recordedHash === '') return { strategy: 'skip', why: 'legacy-hash' };
  if (input.recordedHash === input.newHash) return { strategy: 'skip', why: 'unchanged' };
  const changed = changedProperties(input.oldProperties, input.newProperties);
  const immutable = changed.filter(
    (property) => IDENTITY_PROPERTIES.includes(property) || input.createOnly.includes(property),
  );
  if (immutable.length > 0 || !input.hasUpdate) {
    return {
      strategy: 'replace',
      changed,
      immutable,
      retainOld: input.updateReplacePolicy === 'Retain' || input.updateReplacePolicy === 'Snapshot',
    };
  }
  return { strategy: 'in-place', changed };
}

/** Top-level properties whose value differs (added, removed or changed). */
export function changedProperties(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((key) => canonicalJson(before[key]) !== canonicalJson(after[key]));
}

import { tagDiff, tagMap } from './tags.js';

/** How one service tags and untags a resource: the key/value shape is the service's own, inside these. */
export interface TagCalls {
  tag(tags: Record<string, string>): Promise<unknown>;
  untag(keys: string[]): Promise<unknown>;
}

/**
 * Brings a resource's tags from CloudFormation's `before` tags to `after`: removes the dropped
 * keys first, then sets the new and changed ones; a call with nothing to send is not made.
 */
export async function updateTags(before: unknown, after: unknown, calls: TagCalls): Promise<void> {
  const { set, remove } = tagDiff(tagMap(before), tagMap(after));
  if (remove.length > 0) await calls.untag(remove);
  if (Object.keys(set).length > 0) await calls.tag(set);
}

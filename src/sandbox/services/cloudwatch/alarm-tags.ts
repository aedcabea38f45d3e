import { cloudWatchErrors } from './cloudwatch-errors.js';
import type { AlarmTag } from './store.js';

const MAX_TAGS = 50;

/** A request's `Tags` list, checked as CloudWatch checks it. */
export function readTags(value: unknown): AlarmTag[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw cloudWatchErrors.validation('Tags must be a list of Key and Value pairs');
  return value.map((tag: { Key?: unknown; Value?: unknown } | null) => {
    const key = tag?.Key;
    const tagValue = tag?.Value;
    if (typeof key !== 'string' || key.length < 1 || key.length > 128) {
      throw cloudWatchErrors.invalidParameterValue(`Invalid tag key: ${String(key)}`);
    }
    if (key.toLowerCase().startsWith('aws:')) {
      throw cloudWatchErrors.invalidParameterValue(`Tag keys starting with 'aws:' are reserved: ${key}`);
    }
    if (typeof tagValue !== 'string' || tagValue.length > 256) {
      throw cloudWatchErrors.invalidParameterValue(`Invalid tag value for key ${key}`);
    }
    return { Key: key, Value: tagValue };
  });
}

/** `current` with `added` set over it (a key given twice keeps its last value), within the limit. */
export function mergeTags(current: readonly AlarmTag[], added: readonly AlarmTag[]): AlarmTag[] {
  const merged = new Map(current.map((tag) => [tag.Key, tag.Value]));
  for (const tag of added) merged.set(tag.Key, tag.Value);
  if (merged.size > MAX_TAGS) {
    throw cloudWatchErrors.invalidParameterValue(`A resource can have at most ${MAX_TAGS} tags`);
  }
  return [...merged].map(([Key, Value]) => ({ Key, Value }));
}

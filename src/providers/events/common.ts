import {
  EventBridgeClient,
  ListTagsForResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-eventbridge';
import type { JsonObject, ProviderContext } from '../provider.js';
import type { ClientTuning } from '../../aws/index.js';
import { textTags } from '../tags.js';

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function eventsClient(
  context: ProviderContext,
  tuning: ClientTuning = {},
): Promise<EventBridgeClient> {
  return context.clients.client(EventBridgeClient, context.region, tuning);
}

/** Applies the change in Tags between two property sets to the resource with this ARN. */
export async function retag(
  client: EventBridgeClient,
  ResourceARN: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<void> {
  if (JSON.stringify(before.Tags) === JSON.stringify(after.Tags)) return;
  const old = new Map(textTags(before.Tags).map((t) => [t.Key, t.Value]));
  const next = new Map(textTags(after.Tags).map((t) => [t.Key, t.Value]));
  const removed = [...old.keys()].filter((key) => !next.has(key));
  const set = [...next].filter(([key, value]) => old.get(key) !== value);
  const signal = { abortSignal: context.signal };
  if (removed.length > 0)
    await client.send(new UntagResourceCommand({ ResourceARN, TagKeys: removed }), signal);
  if (set.length > 0) {
    await client.send(
      new TagResourceCommand({ ResourceARN, Tags: set.map(([Key, Value]) => ({ Key, Value })) }),
      signal,
    );
  }
}

export async function observedTags(client: EventBridgeClient, ResourceARN: string): Promise<JsonObject> {
  const tags = (await client.send(new ListTagsForResourceCommand({ ResourceARN }))).Tags ?? [];
  return tags.length > 0 ? { Tags: tags.map((t) => ({ Key: t.Key, Value: t.Value })) } : {};
}

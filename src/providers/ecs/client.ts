import { ECSClient, TagResourceCommand, UntagResourceCommand } from '@aws-sdk/client-ecs';
import type { ClientTuning } from '../../aws/index.js';
import { TOKEN_TAG } from '../physical-names.js';
import type { ProviderContext } from '../provider.js';
import { updateTags } from '../tag-updates.js';

export function ecs(context: ProviderContext, tuning: ClientTuning = {}): Promise<ECSClient> {
  return context.clients.client(ECSClient, context.region, tuning);
}

/** ECS's tags (`{key, value}`) from a template's `Tags`, the token tag added when given. */
export function ecsTags(tags: unknown, token?: string): Array<{ key: string; value: string }> {
  const list = Array.isArray(tags) ? (tags as Array<{ Key: unknown; Value: unknown }>) : [];
  return [
    ...list.map((tag) => ({ key: String(tag.Key), value: String(tag.Value) })),
    ...(token ? [{ key: TOKEN_TAG, value: token }] : []),
  ];
}

/** The template's tags from ECS's, the token tag and AWS's own left out. */
export function templateTags(
  tags: Array<{ key?: string | undefined; value?: string | undefined }> | undefined,
) {
  const kept = (tags ?? []).filter((tag) => tag.key !== TOKEN_TAG && !tag.key?.startsWith('aws:'));
  return kept.length > 0 ? kept.map((tag) => ({ Key: tag.key, Value: tag.value })) : undefined;
}

/** Brings the ECS resource's template tags from `before` to `after` (the token tag stays). */
export async function updateEcsTags(
  client: ECSClient,
  resourceArn: string,
  before: unknown,
  after: unknown,
  context: ProviderContext,
): Promise<void> {
  const signal = { abortSignal: context.signal };
  await updateTags(before, after, {
    tag: (tags) =>
      client.send(
        new TagResourceCommand({
          resourceArn,
          tags: Object.entries(tags).map(([key, value]) => ({ key, value })),
        }),
        signal,
      ),
    untag: (keys) => client.send(new UntagResourceCommand({ resourceArn, tagKeys: keys }), signal),
  });
}

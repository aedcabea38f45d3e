import {
  AddTagsCommand,
  DescribeTagsCommand,
  ElasticLoadBalancingV2Client,
  RemoveTagsCommand,
  type Tag,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { awsErrorCode, type ClientTuning } from '../../aws/index.js';
import { nameFromToken, TOKEN_TAG } from '../physical-names.js';
import type { JsonObject, LocateAnswer, ProviderContext, ResourceRequest } from '../provider.js';
import { updateTags } from '../tag-updates.js';
import { textTags } from '../tags.js';

export function elbv2(
  context: ProviderContext,
  tuning: ClientTuning = {},
): Promise<ElasticLoadBalancingV2Client> {
  return context.clients.client(ElasticLoadBalancingV2Client, context.region, tuning);
}

/** The template's tags with the create's token tag, as the create call writes them. */
export function createTags(properties: JsonObject, token: string | undefined): Tag[] | undefined {
  const tags = [...textTags(properties.Tags), ...(token ? [{ Key: TOKEN_TAG, Value: token }] : [])];
  return tags.length > 0 ? tags : undefined;
}

/** Brings the resource's template tags from `before` to `after` (the token tag stays). */
export async function updateElbv2Tags(
  client: ElasticLoadBalancingV2Client,
  arn: string,
  before: unknown,
  after: unknown,
  context: ProviderContext,
): Promise<void> {
  const signal = { abortSignal: context.signal };
  await updateTags(before, after, {
    tag: (tags) =>
      client.send(
        new AddTagsCommand({
          ResourceArns: [arn],
          Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
        }),
        signal,
      ),
    untag: (keys) => client.send(new RemoveTagsCommand({ ResourceArns: [arn], TagKeys: keys }), signal),
  });
}

/** The resource's tags: the template's (token tag and AWS's own left out) and whether the token tag holds `token`. */
export async function tagsOf(
  client: ElasticLoadBalancingV2Client,
  arn: string,
  context: ProviderContext,
  token?: string,
): Promise<{ tags: Array<{ Key: string; Value: string }> | undefined; madeBy: boolean }> {
  const output = await client.send(new DescribeTagsCommand({ ResourceArns: [arn] }), {
    abortSignal: context.signal,
  });
  const all = output.TagDescriptions?.[0]?.Tags ?? [];
  const kept = all
    .filter((tag) => tag.Key !== TOKEN_TAG && !tag.Key?.startsWith('aws:'))
    .map((tag) => ({ Key: tag.Key ?? '', Value: tag.Value ?? '' }));
  return {
    tags: kept.length > 0 ? kept : undefined,
    madeBy: token !== undefined && all.some((tag) => tag.Key === TOKEN_TAG && tag.Value === token),
  };
}

/**
 * A create's load balancer or target group, found by the name the create sent: it made it when
 * it carries the create's token tag or the name itself came from the token.
 */
export async function claimNamed(
  client: ElasticLoadBalancingV2Client,
  arn: string | undefined,
  request: ResourceRequest,
  context: ProviderContext,
): Promise<LocateAnswer> {
  if (!arn) return 'none';
  const { madeBy } = await tagsOf(client, arn, context, request.idempotencyToken);
  return madeBy || nameFromToken(request.properties.Name, request) ? { physicalId: arn } : 'unknown';
}

/** Sends, through `modify`, the attributes `after` sets that `before` did not set the same way; none, no call. */
export async function modifyAttributes(
  before: unknown,
  after: unknown,
  modify: (attributes: Array<{ Key: string; Value: string }>) => Promise<unknown>,
): Promise<void> {
  const attributes = changedAttributes(before, after);
  if (attributes.length > 0) await modify(attributes);
}

/** `[{Key, Value}]` attribute lists as a map, values as text. */
function attributeMap(list: unknown): Record<string, string> {
  return Object.fromEntries(
    (Array.isArray(list) ? (list as Array<{ Key: unknown; Value: unknown }>) : []).map((item) => [
      String(item.Key),
      String(item.Value),
    ]),
  );
}

/** The attributes to send: those `after` sets that `before` did not set the same way. */
function changedAttributes(before: unknown, after: unknown): Array<{ Key: string; Value: string }> {
  const old = attributeMap(before);
  return Object.entries(attributeMap(after))
    .filter(([key, value]) => old[key] !== value)
    .map(([Key, Value]) => ({ Key, Value }));
}

/** ELB's not-found code as the wire sends it (`TargetGroupNotFound`) or as the SDK names its exception (`...Exception`). */
export function notFound(error: unknown, code: string): boolean {
  const answered = awsErrorCode(error);
  return answered === code || answered === `${code}Exception`;
}

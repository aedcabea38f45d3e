import { CreateTagsCommand, DeleteTagsCommand, EC2Client, type Filter, type Tag } from '@aws-sdk/client-ec2';
import { awsErrorCode } from '../../aws/error-class.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { TOKEN_TAG } from '../physical-names.js';
import type { JsonObject, LocateAnswer, ProviderContext, ResourceRequest } from '../provider.js';
import { tagDiff, tagList, tagMap } from '../tags.js';

/** `SINGLE_ATTEMPT` for a create call that carries no idempotency token (spec 003, "Ambiguous creates"). */
export function ec2(context: ProviderContext, tuning: typeof SINGLE_ATTEMPT = {}): Promise<EC2Client> {
  return context.clients.client(EC2Client, context.region, tuning);
}

export function text(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

export function flagValue(value: unknown): boolean {
  return value === true || value === 'true';
}

export function signalOf(context: ProviderContext): { abortSignal?: AbortSignal } {
  return { abortSignal: context.signal };
}

/**
 * The `TagSpecifications` of a create: the template's tags and the create's token tag, which
 * `locate` finds the resource by after a lost answer.
 */
export function tagSpecifications(
  resourceType: string,
  request: ResourceRequest,
): Array<{ ResourceType: never; Tags: Tag[] }> | undefined {
  const token = request.idempotencyToken;
  const tags = { ...tagMap(request.properties.Tags), ...(token ? { [TOKEN_TAG]: token } : {}) };
  if (Object.keys(tags).length === 0) return undefined;
  return [{ ResourceType: resourceType as never, Tags: tagList(tags) }];
}

/** The filter that finds what a create with this token made. */
export function tokenFilter(token: string): Filter[] {
  return [{ Name: `tag:${TOKEN_TAG}`, Values: [token] }];
}

type SendOptions = { abortSignal?: AbortSignal };

/** `locate` by the token tag the create put on the resource; `find` answers the id its filter finds. */
export async function locateByToken(
  request: ResourceRequest,
  context: ProviderContext,
  find: (client: EC2Client, filters: Filter[], options: SendOptions) => Promise<string | undefined>,
): Promise<LocateAnswer> {
  const token = request.idempotencyToken;
  if (!token) return 'unknown';
  const physicalId = await find(await ec2(context), tokenFilter(token), signalOf(context));
  return physicalId ? { physicalId } : 'none';
}

/** A delete call whose not-found answer (`codes`) means already gone. */
export async function deleteGone(
  context: ProviderContext,
  call: (client: EC2Client, options: SendOptions) => Promise<unknown>,
  ...codes: string[]
): Promise<void> {
  const client = await ec2(context);
  await deleteTreatingNotFoundAsGone(() => call(client, signalOf(context)), errorCodeIn(...codes));
}

/** The one resource a describe by id lists; undefined where EC2 says the id names nothing (`codes`). */
export function describeOne<T>(
  context: ProviderContext,
  list: (options: SendOptions) => Promise<T[] | undefined>,
  ...codes: string[]
): Promise<T | undefined> {
  return orNotFound(async () => (await list(signalOf(context)))?.[0], ...codes);
}

/** Changes only the template's own tags: the token tag and tags added out of band stay. */
export async function retag(
  client: EC2Client,
  resourceId: string,
  before: JsonObject,
  after: JsonObject,
  context: ProviderContext,
): Promise<void> {
  const { set, remove } = tagDiff(tagMap(before.Tags), tagMap(after.Tags));
  if (remove.length > 0) {
    await client.send(
      new DeleteTagsCommand({ Resources: [resourceId], Tags: remove.map((Key) => ({ Key })) }),
      signalOf(context),
    );
  }
  if (Object.keys(set).length > 0) {
    await client.send(
      new CreateTagsCommand({ Resources: [resourceId], Tags: tagList(set) }),
      signalOf(context),
    );
  }
}

/** A resource's tags in template shape, the token tag and AWS's own left out; absent when none. */
export function templateTags(tags: Tag[] | undefined): JsonObject {
  const own = (tags ?? []).filter((tag) => tag.Key !== TOKEN_TAG && !tag.Key?.startsWith('aws:'));
  return own.length > 0 ? { Tags: own.map((tag) => ({ Key: tag.Key, Value: tag.Value })) } : {};
}

/** A describe that answers undefined where EC2 says the id names nothing (`codes`). */
export async function orNotFound<T>(read: () => Promise<T>, ...codes: string[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (codes.includes(awsErrorCode(error) ?? '')) return undefined;
    throw error;
  }
}

import {
  GetQueueUrlCommand,
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListQueueTagsCommand,
  SetQueueAttributesCommand,
  SQSClient,
  TagQueueCommand,
  UntagQueueCommand,
} from '@aws-sdk/client-sqs';

import {
  generatePhysicalName,
  nameFromToken,
  namedCreateToken,
  nameRandom,
  TOKEN_TAG,
} from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
  NameLookup,
} from '../provider.js';
import { isQueueMissing } from './common.js';
import {
  propertiesFromAttributes,
  queueAttributeChanges,
  queueAttributes,
  QUEUE_PROPERTIES,
} from './queue-attributes.js';
import { queueAttributesOf, queueNameOf } from './ref-attributes.js';
import { resourceMade } from '../resource-made.js';
import { tagList, tagMap } from '../tags.js';
import { updateTags } from '../tag-updates.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const QUEUE_TYPE = 'AWS::SQS::Queue';

const FIFO_SUFFIX = '.fifo';
const NAME_LIMIT = 80;

/**
 * A CloudFormation-style name for an unnamed queue: letters, digits, `-` and `_`, at most
 * 80 characters; a FIFO queue's name keeps its `.fifo` suffix inside the limit.
 */
export function generatedQueueName(
  stackName: string,
  logicalId: string,
  fifo: boolean,
  random = nameRandom(undefined),
): string {
  const suffix = fifo ? FIFO_SUFFIX : '';
  const rules = { maxLength: NAME_LIMIT - suffix.length, extraCharacters: '-_' };
  const base = generatePhysicalName(stackName, logicalId, rules, random);
  return base + suffix;
}

function isFifo(properties: JsonObject): boolean {
  return String(properties.FifoQueue) === 'true';
}

/** The URL of the queue holding `name`, or undefined when none does. */
async function queueUrlOf(client: SQSClient, name: string): Promise<string | undefined> {
  try {
    return (await client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (error) {
    if (isQueueMissing(error)) return undefined;
    throw error;
  }
}

async function sqs(context: ProviderContext): Promise<SQSClient> {
  return context.clients.client(SQSClient, context.region);
}

/**
 * AWS::SQS::Queue through CreateQueue / SetQueueAttributes. The physical id and Ref are
 * the queue URL. CreateQueue returns the queue already holding a name when the
 * attributes agree, so a retried create after a lost response gets the same queue.
 * A queue under a generated name whose read-back then fails is reported made
 * (ResourceMadeError, without creation identity: that read is what gives it).
 */
export class QueueProvider extends SdkProvider {
  /** QueueName and FifoQueue are create-only, as the schema says and SQS enforces. */
  readonly description: ProviderDescription = { type: QUEUE_TYPE, covered: QUEUE_PROPERTIES };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const name = this.createName(request, context);
    const client = await sqs(context);
    const token = namedCreateToken(properties.QueueName, request);
    const tags = { ...tagMap(properties.Tags), ...(token !== undefined ? { [TOKEN_TAG]: token } : {}) };
    const created = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: queueAttributes(properties),
        ...(Object.keys(tags).length > 0 ? { tags } : {}),
      }),
      { abortSignal: context.signal },
    );
    const url = created.QueueUrl!;
    let attributes: Record<string, string>;
    try {
      attributes = await this.attributes(client, url, context);
    } catch (error) {
      // A generated name is this create's alone; CreateQueue returns a queue already holding an explicit one.
      if (typeof properties.QueueName !== 'string') throw resourceMade({ physicalId: url }, error);
      throw error;
    }
    return {
      physicalId: url,
      attributes: queueAttributesOf(url, attributes.QueueArn!),
      creationIdentity: {
        Arn: attributes.QueueArn!,
        CreatedTimestamp: Number(attributes.CreatedTimestamp),
      },
      observed: observedOf(url, attributes),
    };
  }

  /**
   * The queue a create with this token made: its generated name derives from the token; a name
   * the template gives counts only with the token tag CreateQueue wrote with it.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const client = await sqs(context);
    const url = await queueUrlOf(client, this.createName(request, context));
    if (!url) return 'none';
    if (nameFromToken(request.properties.QueueName, request)) return { physicalId: url };
    const { Tags } = await client.send(new ListQueueTagsCommand({ QueueUrl: url }), {
      abortSignal: context.signal,
    });
    return Tags?.[TOKEN_TAG] === request.idempotencyToken ? { physicalId: url } : 'none';
  }

  /** The name the template gives, else the one generated from the create's token. */
  createName(request: ResourceRequest, context: ProviderContext): string {
    const given = request.properties.QueueName;
    return typeof given === 'string'
      ? given
      : generatedQueueName(
          context.stackName,
          request.logicalId,
          isFifo(request.properties),
          nameRandom(request.idempotencyToken),
        );
  }

  /** CreateQueue returns the queue already holding an explicit name: look it up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    const name = request.properties.QueueName;
    if (typeof name !== 'string') return undefined;
    const holder = await queueUrlOf(await sqs(context), name);
    return { name, ...(holder ? { holder } : {}) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await sqs(context);
    const url = request.physicalId;
    const changes = queueAttributeChanges(
      request.previousProperties,
      request.properties,
      isFifo(request.properties),
    );
    if (Object.keys(changes).length > 0) {
      await client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: changes }), {
        abortSignal: context.signal,
      });
    }
    await updateTags(request.previousProperties.Tags, request.properties.Tags, {
      tag: (set) => client.send(new TagQueueCommand({ QueueUrl: url, Tags: set })),
      untag: (keys) => client.send(new UntagQueueCommand({ QueueUrl: url, TagKeys: keys })),
    });
    const attributes = await this.attributes(client, url, context);
    return {
      physicalId: url,
      attributes: queueAttributesOf(url, attributes.QueueArn!),
      observed: observedOf(url, attributes),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await sqs(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteQueueCommand({ QueueUrl: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isQueueMissing,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await sqs(context);
    const url = request.physicalId;
    try {
      const attributes = await this.attributes(client, url, context);
      const { Tags } = await client.send(new ListQueueTagsCommand({ QueueUrl: url }));
      const tags = tagList(Tags).filter((tag) => tag.Key !== TOKEN_TAG);
      return {
        properties: { ...observedOf(url, attributes), ...(tags.length > 0 ? { Tags: tags } : {}) },
        attributes: queueAttributesOf(url, attributes.QueueArn!),
        creationIdentity: {
          Arn: attributes.QueueArn!,
          CreatedTimestamp: Number(attributes.CreatedTimestamp),
        },
      };
    } catch (error) {
      if (isQueueMissing(error)) return undefined;
      throw error;
    }
  }

  private async attributes(
    client: SQSClient,
    url: string,
    context: ProviderContext,
  ): Promise<Record<string, string>> {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }),
      { abortSignal: context.signal },
    );
    return Attributes ?? {};
  }
}

/** The queue as the write's own GetQueueAttributes (which its attributes need) shows it. */
function observedOf(url: string, attributes: Record<string, string>): JsonObject {
  // A standard queue is the absence of the FifoQueue attribute: `FifoQueue: false` in a template.
  return {
    ...propertiesFromAttributes(attributes),
    FifoQueue: attributes.FifoQueue === 'true',
    QueueName: queueNameOf(url),
  };
}

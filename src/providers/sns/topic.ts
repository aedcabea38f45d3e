import {
  CreateTopicCommand,
  DeleteTopicCommand,
  GetTopicAttributesCommand,
  ListSubscriptionsByTopicCommand,
  ListTagsForResourceCommand,
  SetTopicAttributesCommand,
  SubscribeCommand,
  TagResourceCommand,
  UnsubscribeCommand,
  UntagResourceCommand,
  type SNSClient,
  type Subscription,
} from '@aws-sdk/client-sns';

import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { generatePhysicalName, nameFromToken, nameRandom } from '../physical-names.js';
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
import { resourceMade } from '../resource-made.js';
import { attributeText } from '../property-values.js';
import { tagList, tagMap } from '../tags.js';
import { updateTags } from '../tag-updates.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { isSnsNotFound, snsClient, topicAttributesOf } from './common.js';
import {
  TOPIC_PROPERTIES,
  topicAttributeChanges,
  topicAttributes,
  topicPropertiesFromAttributes,
} from './topic-attributes.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const TOPIC_TYPE = 'AWS::SNS::Topic';

const FIFO_SUFFIX = '.fifo';

/** A CloudFormation-style topic name (≤256, letters, digits, `-`, `_`), FIFO keeping `.fifo`. */
export function generatedTopicName(
  stackName: string,
  logicalId: string,
  fifo: boolean,
  random = nameRandom(undefined),
): string {
  const suffix = fifo ? FIFO_SUFFIX : '';
  const rules = { maxLength: 256 - suffix.length, extraCharacters: '-_' };
  return generatePhysicalName(stackName, logicalId, rules, random) + suffix;
}

interface InlineSubscription {
  Protocol: string;
  Endpoint: string;
}

function inlineSubscriptions(properties: JsonObject): InlineSubscription[] {
  const list = Array.isArray(properties.Subscription) ? (properties.Subscription as JsonObject[]) : [];
  return list.map((s) => ({ Protocol: String(s.Protocol), Endpoint: String(s.Endpoint) }));
}

const sameSubscription = (a: InlineSubscription, b: InlineSubscription): boolean =>
  a.Protocol === b.Protocol && a.Endpoint === b.Endpoint;

/**
 * AWS::SNS::Topic through CreateTopic / SetTopicAttributes, with its inline `Subscription`
 * list subscribed and unsubscribed by (Protocol, Endpoint). CreateTopic returns the topic
 * already holding a name when attributes and tags agree, so a retried create is safe.
 * A topic under a generated name whose subscriptions then fail is reported made.
 */
export class TopicProvider extends SdkProvider {
  /** TopicName and FifoTopic are create-only. */
  readonly description: ProviderDescription = { type: TOPIC_TYPE, covered: TOPIC_PROPERTIES };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const { properties } = request;
    const name = topicName(request, context);
    const client = await snsClient(context);
    const tags = tagList(tagMap(properties.Tags));
    const { TopicArn } = await client.send(
      new CreateTopicCommand({
        Name: name,
        Attributes: topicAttributes(properties),
        ...(tags.length > 0 ? { Tags: tags } : {}),
      }),
      { abortSignal: context.signal },
    );
    const arn = TopicArn!;
    const creationIdentity = { TopicArn: arn };
    try {
      for (const subscription of inlineSubscriptions(properties)) {
        await client.send(
          new SubscribeCommand({ TopicArn: arn, ...subscription, ReturnSubscriptionArn: true }),
        );
      }
    } catch (error) {
      // A generated name is this create's alone; CreateTopic returns a topic already holding an explicit one.
      if (typeof properties.TopicName !== 'string') {
        throw resourceMade({ physicalId: arn, creationIdentity }, error);
      }
      throw error;
    }
    return {
      physicalId: arn,
      attributes: topicAttributesOf(arn),
      creationIdentity,
      observed: observedOf(arn),
    };
  }

  /** The topic a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.TopicName, request)) return 'unknown';
    const arn = await topicHolding(topicName(request, context), context);
    return arn ? { physicalId: arn } : 'none';
  }

  /** The topic's ARN: its name (given, or generated from the token), account and region make it. */
  createName(request: ResourceRequest, context: ProviderContext): string {
    return topicArn(topicName(request, context), context);
  }

  /** CreateTopic returns the topic already holding an explicit name: look it up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    const name = request.properties.TopicName;
    if (typeof name !== 'string') return undefined;
    const holder = await topicHolding(name, context);
    return { name, ...(holder ? { holder } : {}) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await snsClient(context);
    const arn = request.physicalId;
    const fifo = attributeText(request.properties.FifoTopic) === 'true';
    for (const [AttributeName, AttributeValue] of topicAttributeChanges(
      request.previousProperties,
      request.properties,
      fifo,
    )) {
      await client.send(new SetTopicAttributesCommand({ TopicArn: arn, AttributeName, AttributeValue }), {
        abortSignal: context.signal,
      });
    }
    await updateTags(request.previousProperties.Tags, request.properties.Tags, {
      tag: (set) => client.send(new TagResourceCommand({ ResourceArn: arn, Tags: tagList(set) })),
      untag: (keys) => client.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: keys })),
    });
    await this.updateSubscriptions(client, arn, request);
    return { physicalId: arn, attributes: topicAttributesOf(arn), observed: observedOf(arn) };
  }

  private async updateSubscriptions(client: SNSClient, arn: string, request: UpdateRequest): Promise<void> {
    const before = inlineSubscriptions(request.previousProperties);
    const after = inlineSubscriptions(request.properties);
    const removed = before.filter((b) => !after.some((a) => sameSubscription(a, b)));
    const added = after.filter((a) => !before.some((b) => sameSubscription(a, b)));
    if (removed.length > 0) {
      for (const live of await listSubscriptions(client, arn)) {
        const match = removed.some((r) => r.Protocol === live.Protocol && r.Endpoint === live.Endpoint);
        if (match && live.SubscriptionArn?.startsWith('arn:')) {
          await client.send(new UnsubscribeCommand({ SubscriptionArn: live.SubscriptionArn }));
        }
      }
    }
    for (const subscription of added) {
      await client.send(
        new SubscribeCommand({ TopicArn: arn, ...subscription, ReturnSubscriptionArn: true }),
      );
    }
  }

  /** SNS deletes a topic's subscriptions with it; a missing topic is already gone. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await snsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteTopicCommand({ TopicArn: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isSnsNotFound,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await snsClient(context);
    const arn = request.physicalId;
    try {
      const { Attributes } = await client.send(new GetTopicAttributesCommand({ TopicArn: arn }));
      const { Tags } = await client.send(new ListTagsForResourceCommand({ ResourceArn: arn }));
      const live = await listSubscriptions(client, arn);
      // Only the inline subscriptions: AWS::SNS::Subscription resources are read on their own.
      const inline = inlineSubscriptions(request.properties).filter((s) =>
        live.some((l) => l.Protocol === s.Protocol && l.Endpoint === s.Endpoint),
      );
      return {
        properties: {
          ...topicPropertiesFromAttributes(Attributes ?? {}),
          TopicName: topicAttributesOf(arn).TopicName,
          ...(Tags && Tags.length > 0 ? { Tags } : {}),
          ...(inline.length > 0 ? { Subscription: inline } : {}),
        },
        attributes: topicAttributesOf(arn),
        creationIdentity: { TopicArn: arn },
      };
    } catch (error) {
      if (isSnsNotFound(error)) return undefined;
      throw error;
    }
  }
}

/** The ARN of the topic holding `name`, or undefined when none does. */
/** The name the template gives, else the one generated from the create's token. */
function topicName(request: ResourceRequest, context: ProviderContext): string {
  const { properties } = request;
  if (typeof properties.TopicName === 'string') return properties.TopicName;
  const fifo = attributeText(properties.FifoTopic) === 'true';
  return generatedTopicName(context.stackName, request.logicalId, fifo, nameRandom(request.idempotencyToken));
}

/** SNS reads a topic by ARN only; the name, account and region make it. */
function topicArn(name: string, context: ProviderContext): string {
  return `arn:${partitionForRegion(context.region)}:sns:${context.region}:${context.accountId}:${name}`;
}

async function topicHolding(name: string, context: ProviderContext): Promise<string | undefined> {
  const arn = topicArn(name, context);
  const client = await snsClient(context);
  try {
    const { Attributes } = await client.send(new GetTopicAttributesCommand({ TopicArn: arn }));
    return Attributes?.TopicArn ?? arn;
  } catch (error) {
    if (isSnsNotFound(error)) return undefined;
    throw error;
  }
}

async function listSubscriptions(client: SNSClient, topicArn: string): Promise<Subscription[]> {
  const all: Subscription[] = [];
  let NextToken: string | undefined;
  do {
    const page = await client.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, NextToken }));
    all.push(...(page.Subscriptions ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return all;
}

/**
 * CreateTopic answers only the ARN, which holds the name AWS gave the topic; SetTopicAttributes
 * and the tag calls answer nothing, so an update observes the same.
 */
function observedOf(arn: string): JsonObject {
  return { TopicName: arn.slice(arn.lastIndexOf(':') + 1) };
}

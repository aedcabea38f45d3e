import { GetTopicAttributesCommand, SetTopicAttributesCommand, type SNSClient } from '@aws-sdk/client-sns';
import { generatePhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { jsonText, stringList, uncovered } from '../sqs/values.js';
import { defaultTopicPolicy, isSnsNotFound, snsClient, topicPolicyAttributesOf } from './common.js';

export const TOPIC_POLICY_TYPE = 'AWS::SNS::TopicPolicy';

const PROPERTIES = ['PolicyDocument', 'Topics'];

/**
 * AWS::SNS::TopicPolicy: the `Policy` attribute of each topic in `Topics` (ARNs). Its
 * physical id is a generated name; every change applies in place (spec 002: a policy
 * naming several parents is written again in place). Removing it from a topic restores
 * the default policy SNS gives every topic, as CloudFormation does.
 */
export class TopicPolicyProvider implements Provider {
  readonly kind = 'sdk' as const;

  handles(type: string): boolean {
    return type === TOPIC_POLICY_TYPE;
  }

  canUpdateInPlace(): boolean {
    return true;
  }

  uncoveredProperties(_type: string, properties: JsonObject): string[] {
    return uncovered(properties, PROPERTIES);
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const id = generatePhysicalName(context.stackName, request.logicalId, { maxLength: 255 });
    await this.write(request.properties, [], context);
    return { physicalId: id, attributes: topicPolicyAttributesOf(id) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.write(request.properties, stringList(request.previousProperties.Topics), context);
    return { physicalId: request.physicalId, attributes: topicPolicyAttributesOf(request.physicalId) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await snsClient(context);
    for (const arn of stringList(request.properties.Topics)) await restoreDefault(client, arn, context);
  }

  /** The policy as the named topics hold it; undefined when none holds more than the default. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await snsClient(context);
    const topics: string[] = [];
    let document: unknown;
    for (const arn of stringList(request.properties.Topics)) {
      const policy = await readPolicy(client, arn);
      if (policy === undefined || isDefault(policy, arn, context.accountId)) continue;
      topics.push(arn);
      document ??= JSON.parse(policy);
    }
    if (topics.length === 0) return undefined;
    return {
      properties: { PolicyDocument: document, Topics: topics },
      attributes: topicPolicyAttributesOf(request.physicalId),
    };
  }

  private async write(properties: JsonObject, previousTopics: string[], context: ProviderContext) {
    const client = await snsClient(context);
    const topics = stringList(properties.Topics);
    const policy = jsonText(properties.PolicyDocument);
    for (const arn of topics) {
      await client.send(
        new SetTopicAttributesCommand({ TopicArn: arn, AttributeName: 'Policy', AttributeValue: policy }),
        { abortSignal: context.signal },
      );
    }
    for (const arn of previousTopics.filter((previous) => !topics.includes(previous))) {
      await restoreDefault(client, arn, context);
    }
  }
}

async function restoreDefault(client: SNSClient, arn: string, context: ProviderContext): Promise<void> {
  try {
    await client.send(
      new SetTopicAttributesCommand({
        TopicArn: arn,
        AttributeName: 'Policy',
        AttributeValue: defaultTopicPolicy(arn, context.accountId),
      }),
      { abortSignal: context.signal },
    );
  } catch (error) {
    if (!isSnsNotFound(error)) throw error;
  }
}

/** Compared as documents: SNS may return the default policy with other whitespace. */
function isDefault(policy: string, arn: string, accountId: string): boolean {
  return JSON.stringify(JSON.parse(policy)) === defaultTopicPolicy(arn, accountId);
}

async function readPolicy(client: SNSClient, arn: string): Promise<string | undefined> {
  try {
    const { Attributes } = await client.send(new GetTopicAttributesCommand({ TopicArn: arn }));
    return Attributes?.Policy;
  } catch (error) {
    if (isSnsNotFound(error)) return undefined;
    throw error;
  }
}

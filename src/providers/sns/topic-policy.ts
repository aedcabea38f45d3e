import { GetTopicAttributesCommand, SetTopicAttributesCommand } from '@aws-sdk/client-sns';
import { ParentPolicyProvider } from '../parent-policy.js';
import type { ProviderContext } from '../provider.js';
import { defaultTopicPolicy, isSnsNotFound, snsClient, topicPolicyAttributesOf } from './common.js';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';

export const TOPIC_POLICY_TYPE = 'AWS::SNS::TopicPolicy';

/**
 * AWS::SNS::TopicPolicy: the `Policy` attribute of each topic in `Topics` (ARNs).
 * Removing it from a topic restores the default policy SNS gives every topic, as
 * CloudFormation does; a topic holding only that default holds none of ours.
 */
export class TopicPolicyProvider extends ParentPolicyProvider {
  constructor() {
    super({
      type: TOPIC_POLICY_TYPE,
      parentsProperty: 'Topics',
      attributesOf: topicPolicyAttributesOf,
      write: (arn, policy, context) => setPolicy(arn, policy, context),
      remove: (arn, context) =>
        deleteTreatingNotFoundAsGone(
          () => setPolicy(arn, defaultTopicPolicy(arn, context.accountId), context),
          isSnsNotFound,
        ),
      read: readLive,
      servicePolicy: (arn, context) => defaultTopicPolicy(arn, context.accountId),
    });
  }
}

async function setPolicy(arn: string, policy: string, context: ProviderContext): Promise<void> {
  await (
    await snsClient(context)
  ).send(new SetTopicAttributesCommand({ TopicArn: arn, AttributeName: 'Policy', AttributeValue: policy }), {
    abortSignal: context.signal,
  });
}

async function readLive(arn: string, context: ProviderContext): Promise<string | undefined> {
  try {
    const { Attributes } = await (
      await snsClient(context)
    ).send(new GetTopicAttributesCommand({ TopicArn: arn }), { abortSignal: context.signal });
    return Attributes?.Policy || undefined;
  } catch (error) {
    if (isSnsNotFound(error)) return undefined;
    throw error;
  }
}

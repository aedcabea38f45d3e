import type { Storage } from '../../storage/storage.js';
import { policyAttachments, type PolicyAttachments } from '../policy-attachments.js';
import type { SnsStore, TopicRecord } from './store.js';
import { defaultPolicy, validateTopicAttributes } from './topic-ops.js';

export const TOPIC_POLICY = 'AWS::SNS::TopicPolicy';

/**
 * AWS::SNS::TopicPolicy on the SNS module's store: sets the Policy attribute of each topic
 * in Topics, as SetTopicAttributes does; deleting it gives the topic back SNS's default policy.
 */
export function topicPolicyResources(storage: Storage, store: SnsStore): Promise<PolicyAttachments> {
  const topicAt = (arn: string, region: string, accountId: string): TopicRecord | undefined => {
    const topic = store.topics.get(arn);
    return topic?.region === region && topic.accountId === accountId ? topic : undefined;
  };
  return policyAttachments(storage, {
    type: TOPIC_POLICY,
    listProperty: 'Topics',
    namespace: 'sns/topic-policies',
    noun: 'Topic',
    exists: (arn, region, accountId) => topicAt(arn, region, accountId) !== undefined,
    async apply(arn, policy, region, accountId) {
      const topic = topicAt(arn, region, accountId)!;
      if (policy !== undefined) validateTopicAttributes({ Policy: policy }, false, false);
      topic.attributes.Policy = policy ?? defaultPolicy(topic.arn, topic.accountId);
      await store.saveTopic(topic);
    },
  });
}

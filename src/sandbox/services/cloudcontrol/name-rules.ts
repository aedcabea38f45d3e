import type { ResourceModel } from '../../resources.js';
import { topicNameProblem } from '../sns/topic-ops.js';
import { queueNameProblem } from '../sqs/queue-ops.js';

const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * Names the service behind a type refuses, for the types the generic store keeps: Cloud
 * Control fails such a create with the service's own message, as AWS does.
 */
const RULES: Record<string, (desired: ResourceModel) => string | undefined> = {
  'AWS::SQS::Queue': (desired) =>
    typeof desired.QueueName === 'string'
      ? queueNameProblem(desired.QueueName, isTrue(desired.FifoQueue))
      : undefined,
  'AWS::SNS::Topic': (desired) => {
    if (typeof desired.TopicName !== 'string') return undefined;
    const problem = topicNameProblem(desired.TopicName, isTrue(desired.FifoTopic));
    return problem && `Invalid parameter: ${problem}`;
  },
};

export function nameProblem(type: string, desired: ResourceModel): string | undefined {
  return RULES[type]?.(desired);
}

import type { JsonObject } from '../provider.js';

/**
 * What `Ref` and `Fn::GetAtt` return for the SQS types, as CloudFormation returns them:
 *
 * | type                  | Ref        | attribute | source                          |
 * | --------------------- | ---------- | --------- | ------------------------------- |
 * | AWS::SQS::Queue       | queue URL  | Arn       | QueueArn attribute              |
 * |                       |            | QueueName | last segment of the URL         |
 * |                       |            | QueueUrl  | the URL (the physical id)       |
 * | AWS::SQS::QueuePolicy | policy id  | Id        | the generated id (physical id)  |
 *
 * The queue URL is the physical id, so no separate `ref` is recorded.
 */
export function queueAttributesOf(queueUrl: string, queueArn: string): JsonObject {
  return { Arn: queueArn, QueueName: queueNameOf(queueUrl), QueueUrl: queueUrl };
}

export function queuePolicyAttributesOf(id: string): JsonObject {
  return { Id: id };
}

export function queueNameOf(queueUrl: string): string {
  return queueUrl.replace(/\/+$/, '').split('/').pop() ?? '';
}

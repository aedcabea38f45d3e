import { SNSClient } from '@aws-sdk/client-sns';
import { awsErrorCode } from '../../aws/error-class.js';
import type { ProviderContext } from '../provider.js';

export async function snsClient(context: ProviderContext, region = context.region): Promise<SNSClient> {
  return context.clients.client(SNSClient, region);
}

/** SNS's NotFound (topic or subscription) as the SDK names it. */
export function isSnsNotFound(error: unknown): boolean {
  const code = awsErrorCode(error);
  return code === 'NotFound' || code === 'NotFoundException' || code === 'ResourceNotFoundException';
}

/** The policy SNS gives a new topic, which a deleted AWS::SNS::TopicPolicy restores. */
export function defaultTopicPolicy(topicArn: string, accountId: string): string {
  return JSON.stringify({
    Version: '2008-10-17',
    Id: '__default_policy_ID',
    Statement: [
      {
        Sid: '__default_statement_ID',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: [
          'SNS:GetTopicAttributes',
          'SNS:SetTopicAttributes',
          'SNS:AddPermission',
          'SNS:RemovePermission',
          'SNS:DeleteTopic',
          'SNS:Subscribe',
          'SNS:ListSubscriptionsByTopic',
          'SNS:Publish',
        ],
        Resource: topicArn,
        Condition: { StringEquals: { 'AWS:SourceOwner': accountId } },
      },
    ],
  });
}

/**
 * What `Ref` and `Fn::GetAtt` return for the SNS types, as CloudFormation returns them:
 *
 * | type                   | Ref              | attribute | source                        |
 * | ---------------------- | ---------------- | --------- | ----------------------------- |
 * | AWS::SNS::Topic        | topic ARN        | TopicArn  | CreateTopic's TopicArn        |
 * |                        |                  | TopicName | last segment of the ARN       |
 * | AWS::SNS::Subscription | subscription ARN | Arn       | Subscribe's SubscriptionArn   |
 * | AWS::SNS::TopicPolicy  | policy id        | Id        | the generated id              |
 *
 * Each Ref is the physical id, so no separate `ref` is recorded.
 */
export function topicAttributesOf(topicArn: string): Record<string, string> {
  return { TopicArn: topicArn, TopicName: topicArn.split(':').pop() ?? '' };
}

export function subscriptionAttributesOf(subscriptionArn: string): Record<string, string> {
  return { Arn: subscriptionArn };
}

export function topicPolicyAttributesOf(id: string): Record<string, string> {
  return { Id: id };
}

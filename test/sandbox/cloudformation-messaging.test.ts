import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from './helpers.js';
import { settled, template, useCloudFormation } from './cloudformation-helpers.js';

// A stack's queues, topics, subscriptions and queue policies are the ones the SQS and SNS APIs
// serve: an app deployed through CloudFormation uses them as on AWS.
const env = useCloudFormation();
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };
let sqs: SQSClient;
let sns: SNSClient;

beforeAll(() => {
  sqs = new SQSClient({ endpoint: env.sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
  sns = new SNSClient({ endpoint: env.sandbox.url, region: 'us-east-1', credentials, maxAttempts: 1 });
});
afterAll(() => {
  sqs.destroy();
  sns.destroy();
});

function messagingTemplate(visibilityTimeout: number): string {
  return template(
    {
      Inbox: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: visibilityTimeout } },
      Events: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: 'Events' } },
      InboxSubscription: {
        Type: 'AWS::SNS::Subscription',
        Properties: {
          TopicArn: { Ref: 'Events' },
          Protocol: 'sqs',
          Endpoint: { 'Fn::GetAtt': ['Inbox', 'Arn'] },
          RawMessageDelivery: true,
        },
      },
      InboxPolicy: {
        Type: 'AWS::SQS::QueuePolicy',
        Properties: {
          Queues: [{ Ref: 'Inbox' }],
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'sns.amazonaws.com' },
                Action: 'sqs:SendMessage',
                Resource: { 'Fn::GetAtt': ['Inbox', 'Arn'] },
                Condition: { ArnEquals: { 'aws:SourceArn': { Ref: 'Events' } } },
              },
            ],
          },
        },
      },
    },
    {
      Outputs: {
        QueueUrl: { Value: { Ref: 'Inbox' } },
        QueueName: { Value: { 'Fn::GetAtt': ['Inbox', 'QueueName'] } },
        TopicArn: { Value: { Ref: 'Events' } },
      },
    },
  );
}

describe('CloudFormation stacks with SQS and SNS resources', () => {
  it('creates a queue, topic, subscription and queue policy that deliver a published message', async () => {
    await env.cfn.send(
      new CreateStackCommand({ StackName: 'messaging', TemplateBody: messagingTemplate(30) }),
    );
    const stack = await settled(env.cfn, 'messaging');
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const output = (key: string) => stack.Outputs!.find((o) => o.OutputKey === key)!.OutputValue!;
    const queueUrl = output('QueueUrl');
    expect((await sqs.send(new GetQueueUrlCommand({ QueueName: output('QueueName') }))).QueueUrl).toBe(
      queueUrl,
    );

    await sns.send(new PublishCommand({ TopicArn: output('TopicArn'), Message: 'deployed' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }));
    expect(Messages?.map((m) => m.Body)).toEqual(['deployed']);

    await env.cfn.send(
      new UpdateStackCommand({ StackName: 'messaging', TemplateBody: messagingTemplate(120) }),
    );
    expect((await settled(env.cfn, 'messaging')).StackStatus).toBe('UPDATE_COMPLETE');
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }),
    );
    expect(Attributes?.VisibilityTimeout).toBe('120');

    const resources = await env.cfn.send(new DescribeStackResourcesCommand({ StackName: 'messaging' }));
    expect(resources.StackResources?.find((r) => r.LogicalResourceId === 'Inbox')?.PhysicalResourceId).toBe(
      queueUrl,
    );

    await env.cfn.send(new DeleteStackCommand({ StackName: 'messaging' }));
    await settled(env.cfn, 'messaging').catch(() => undefined);
    const gone = await failure(sqs.send(new GetQueueUrlCommand({ QueueName: output('QueueName') })));
    expect(gone.name).toBe('QueueDoesNotExist');
  });
});

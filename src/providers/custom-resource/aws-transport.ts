import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { AwsClients } from '../../aws/index.js';
import type { Clock } from '../clock.js';
import { waitForFunction } from '../lambda/waits.js';
import type { HandlerTransport } from './ports.js';

/** Lambda handlers are invoked with InvocationType Event, as CloudFormation does; SNS handlers get a Publish. */
export function awsTransport(clients: AwsClients, clock: Clock): HandlerTransport {
  return {
    async ready(target, signal) {
      if (target.kind !== 'lambda') return;
      const lambda = await clients.client(LambdaClient, target.region);
      // Lambda refuses Invoke on a function still Pending (just made) or mid-update.
      await waitForFunction(lambda, target.functionName, 'updated', clock, signal);
    },
    async send(target, payload, signal) {
      if (target.kind === 'lambda') {
        const lambda = await clients.client(LambdaClient, target.region);
        await lambda.send(
          new InvokeCommand({
            FunctionName: target.functionName,
            InvocationType: 'Event',
            Payload: Buffer.from(payload, 'utf8'),
          }),
          { abortSignal: signal },
        );
        return;
      }
      const sns = await clients.client(SNSClient, target.region);
      await sns.send(new PublishCommand({ TopicArn: target.topicArn, Message: payload }), {
        abortSignal: signal,
      });
    },
  };
}

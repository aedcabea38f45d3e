import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ParentPolicyProvider } from '../parent-policy.js';
import type { ProviderContext } from '../provider.js';
import { isQueueMissing } from './common.js';
import { queuePolicyAttributesOf } from './ref-attributes.js';

export const QUEUE_POLICY_TYPE = 'AWS::SQS::QueuePolicy';

/** AWS::SQS::QueuePolicy: the `Policy` attribute of each queue in `Queues` (URLs). */
export class QueuePolicyProvider extends ParentPolicyProvider {
  constructor() {
    super({
      type: QUEUE_POLICY_TYPE,
      parentsProperty: 'Queues',
      attributesOf: queuePolicyAttributesOf,
      write: (url, policy, context) => setPolicy(url, policy, context),
      // An empty Policy removes it.
      remove: (url, context) => setPolicy(url, '', context),
      read: readPolicy,
    });
  }
}

async function sqs(context: ProviderContext): Promise<SQSClient> {
  return context.clients.client(SQSClient, context.region);
}

async function setPolicy(url: string, policy: string, context: ProviderContext): Promise<void> {
  try {
    await (
      await sqs(context)
    ).send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: policy } }), {
      abortSignal: context.signal,
    });
  } catch (error) {
    // A queue already gone has no policy to remove; writing one to it is a real failure.
    if (policy !== '' || !isQueueMissing(error)) throw error;
  }
}

async function readPolicy(url: string, context: ProviderContext): Promise<string | undefined> {
  try {
    const { Attributes } = await (
      await sqs(context)
    ).send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }), {
      abortSignal: context.signal,
    });
    return Attributes?.Policy || undefined;
  } catch (error) {
    if (isQueueMissing(error)) return undefined;
    throw error;
  }
}

import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
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
import { isQueueMissing } from './common.js';
import { queuePolicyAttributesOf } from './ref-attributes.js';
import { jsonText, stringList, uncovered } from './values.js';

export const QUEUE_POLICY_TYPE = 'AWS::SQS::QueuePolicy';

const PROPERTIES = ['PolicyDocument', 'Queues'];

/**
 * AWS::SQS::QueuePolicy: the `Policy` attribute of each queue in `Queues` (URLs). It has no
 * AWS identity of its own, so its physical id is a generated name. Every change applies
 * in place, which is also how a re-created queue gets its policy back (spec 002: a policy
 * naming several parents is written again in place).
 */
export class QueuePolicyProvider implements Provider {
  readonly kind = 'sdk' as const;

  handles(type: string): boolean {
    return type === QUEUE_POLICY_TYPE;
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
    return { physicalId: id, attributes: queuePolicyAttributesOf(id) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.write(request.properties, stringList(request.previousProperties.Queues), context);
    return { physicalId: request.physicalId, attributes: queuePolicyAttributesOf(request.physicalId) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await sqs(context);
    for (const url of stringList(request.properties.Queues)) await clearPolicy(client, url, context);
  }

  /** The policy as the first queue that still has one holds it; undefined when none does. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await sqs(context);
    const queues: string[] = [];
    let document: unknown;
    for (const url of stringList(request.properties.Queues)) {
      const policy = await readPolicy(client, url, context);
      if (policy === undefined) continue;
      queues.push(url);
      document ??= JSON.parse(policy);
    }
    if (queues.length === 0) return undefined;
    return {
      properties: { PolicyDocument: document, Queues: queues },
      attributes: queuePolicyAttributesOf(request.physicalId),
    };
  }

  /** Sets the policy on every named queue, and removes it from queues no longer named. */
  private async write(properties: JsonObject, previousQueues: string[], context: ProviderContext) {
    const client = await sqs(context);
    const queues = stringList(properties.Queues);
    const policy = jsonText(properties.PolicyDocument);
    for (const url of queues) {
      await client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: policy } }), {
        abortSignal: context.signal,
      });
    }
    for (const url of previousQueues.filter((previous) => !queues.includes(previous))) {
      await clearPolicy(client, url, context);
    }
  }
}

async function sqs(context: ProviderContext): Promise<SQSClient> {
  return context.clients.client(SQSClient, context.region);
}

/** An empty Policy removes it; a queue already gone has nothing to remove. */
async function clearPolicy(client: SQSClient, url: string, context: ProviderContext): Promise<void> {
  try {
    await client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: '' } }), {
      abortSignal: context.signal,
    });
  } catch (error) {
    if (!isQueueMissing(error)) throw error;
  }
}

async function readPolicy(
  client: SQSClient,
  url: string,
  context: ProviderContext,
): Promise<string | undefined> {
  try {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }),
      { abortSignal: context.signal },
    );
    return Attributes?.Policy;
  } catch (error) {
    if (isQueueMissing(error)) return undefined;
    throw error;
  }
}

import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import type { SqsCall, SqsOptions } from './call.js';
import * as messages from './message-ops.js';
import { enqueue } from './queue-messages.js';
import * as queues from './queue-ops.js';
import { deliverChecked } from '../../policy/delivery-check.js';
import { sqsConsumer, sqsSender } from '../../ports/index.js';
import { consumerPort } from './consumer-port.js';
import { queueMessagesView } from './messages-view.js';
import { sqsErrors } from './sqs-errors.js';
import { QUEUE_POLICY, queuePolicyResources } from './queue-policy-resource.js';
import { QUEUE, queueResourceHandler } from './queue-resource.js';
import { queueArn, QueueStore } from './store.js';

const HANDLERS: Record<string, (call: SqsCall) => Promise<unknown>> = {
  CreateQueue: queues.createQueue,
  GetQueueUrl: queues.getQueueUrl,
  GetQueueAttributes: queues.getQueueAttributes,
  SetQueueAttributes: queues.setQueueAttributes,
  DeleteQueue: queues.deleteQueue,
  ListQueues: queues.listQueues,
  TagQueue: queues.tagQueue,
  UntagQueue: queues.untagQueue,
  ListQueueTags: queues.listQueueTags,
  SendMessage: messages.sendMessage,
  ReceiveMessage: messages.receiveMessage,
  DeleteMessage: messages.deleteMessage,
  SendMessageBatch: messages.sendMessageBatch,
  DeleteMessageBatch: messages.deleteMessageBatch,
  ChangeMessageVisibility: messages.changeMessageVisibility,
  ChangeMessageVisibilityBatch: messages.changeMessageVisibilityBatch,
  PurgeQueue: messages.purgeQueue,
};

const READ_ONLY = new Set(['GetQueueUrl', 'GetQueueAttributes', 'ListQueues', 'ListQueueTags']);

/**
 * SQS over JSON 1.0 (`AmazonSQS.<Op>`), which the SDK speaks since early 2024. The
 * 60-second name cooldown after DeleteQueue is `deleteCooldownMs`, short in tests.
 */
export function sqsService(overrides: Partial<SqsOptions> = {}): ServiceModuleFactory {
  return async (context) => {
    const options: SqsOptions = { deleteCooldownMs: 60_000, now: () => context.clock.now(), ...overrides };
    const store = await QueueStore.load(context.storage);
    sqsSender.expose(context, {
      async send(arn, body, { groupId, caller, attributes } = {}) {
        const [, , , region = '', accountId, name = ''] = arn.split(':');
        const found = store.get(region, name);
        const queue = found?.accountId === accountId ? found : undefined;
        const target = { arn, action: 'sqs:SendMessage', policy: queue?.attributes.Policy, exists: !!queue };
        let messageId: string | undefined;
        const outcome = await deliverChecked(context, caller, target, async () => {
          const delay = Number(queue!.attributes.DelaySeconds ?? 0);
          messageId = (await enqueue(store, queue!, { body, now: options.now(), delay, groupId, attributes }))
            .id;
        });
        return messageId === undefined ? outcome : { ...outcome, messageId };
      },
    });
    sqsConsumer.expose(context, consumerPort(store, options));
    const baseUrl = (region: string) => context.endpoint ?? `https://sqs.${region}.amazonaws.com`;
    context.resources.register(QUEUE, queueResourceHandler(store, options, baseUrl));
    const policies = await queuePolicyResources(context.storage, store, options);
    context.resources.register(QUEUE_POLICY, policies.handler);
    const module: ServiceModule = {
      name: 'sqs',
      codec: jsonCodec('1.0'),
      operation: (request) => jsonOperation(request, 'AmazonSQS'),
      // ReceiveMessage changes visibility and receive counts, so it mutates.
      isMutating: (operation) => !READ_ONLY.has(operation),
      async handle(request, operation) {
        const handler = HANDLERS[operation];
        if (!handler) throw sqsErrors.invalidAction(operation);
        const call: SqsCall = {
          store,
          accountId: request.accountId,
          request,
          input: jsonInput(request),
          options,
        };
        return jsonResult('1.0', await handler(call));
      },
      views: { messages: (query) => queueMessagesView(store, query, context.region) },
      inventory() {
        const entries = store.all().map((queue) => ({
          id: queue.name,
          region: queue.region,
          arn: queueArn(queue),
          fifo: queue.attributes.FifoQueue === 'true',
          messageCount: queue.messages.length,
          hasPolicy: queue.attributes.Policy !== undefined,
        }));
        return { [QUEUE]: entries, [QUEUE_POLICY]: policies.inventory() };
      },
    };
    return module;
  };
}

export const createSqsService: ServiceModuleFactory = sqsService();

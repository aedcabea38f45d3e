import { randomUUID } from 'node:crypto';
import { queryAction, queryCodec, queryParams, queryResult } from '../../protocols/query.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import type { SnsHandler } from './call.js';
import { deliver, publish } from './publish-ops.js';
import { deliverChecked } from '../../policy/delivery-check.js';
import { snsPublisher } from '../../ports/index.js';
import { snsErrors } from './sns-errors.js';
import { SnsStore } from './store.js';
import { SUBSCRIPTION, subscriptionResourceHandler } from './subscription-resource.js';
import { TOPIC_POLICY, topicPolicyResources } from './topic-policy-resource.js';
import { TOPIC, topicResourceHandler } from './topic-resource.js';
import * as subscriptions from './subscription-ops.js';
import * as topics from './topic-ops.js';

const XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';

const HANDLERS: Record<string, SnsHandler> = {
  CreateTopic: topics.createTopic,
  GetTopicAttributes: topics.getTopicAttributes,
  SetTopicAttributes: topics.setTopicAttributes,
  DeleteTopic: topics.deleteTopic,
  ListTopics: topics.listTopics,
  TagResource: topics.tagResource,
  UntagResource: topics.untagResource,
  ListTagsForResource: topics.listTagsForResource,
  Subscribe: subscriptions.subscribe,
  Unsubscribe: subscriptions.unsubscribe,
  GetSubscriptionAttributes: subscriptions.getSubscriptionAttributes,
  SetSubscriptionAttributes: subscriptions.setSubscriptionAttributes,
  ListSubscriptionsByTopic: subscriptions.listSubscriptionsByTopic,
  Publish: publish,
};

const READ_ONLY = /^(Get|List)/;

/** SNS over the query protocol: topics, subscriptions, topic tags, Publish to Lambda and SQS subscribers. */
export const createSnsService: ServiceModuleFactory = async (context) => {
  const store = await SnsStore.load(context.storage);
  snsPublisher.expose(context, {
    async publish(topicArn, message, subject, caller) {
      const topic = store.topics.get(topicArn);
      const target = {
        arn: topicArn,
        action: 'sns:Publish',
        policy: topic?.attributes.Policy,
        exists: !!topic,
      };
      return deliverChecked(context, caller, target, () =>
        deliver(store, context, topic!, {
          messageId: randomUUID(),
          message,
          subject: subject ?? null,
          attributes: {},
          timestamp: context.clock.iso(),
        }),
      );
    },
  });
  context.resources.register(
    TOPIC,
    topicResourceHandler(store, () => context.clock.now()),
  );
  context.resources.register(SUBSCRIPTION, subscriptionResourceHandler(store));
  const policies = await topicPolicyResources(context.storage, store);
  context.resources.register(TOPIC_POLICY, policies.handler);
  const module: ServiceModule = {
    name: 'sns',
    codec: queryCodec,
    operation: queryAction,
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw snsErrors.invalidAction(operation);
      const result = await handler({
        store,
        context,
        accountId: request.accountId,
        request,
        params: queryParams(request),
      });
      return queryResult(operation, XMLNS, result, request);
    },
    inventory() {
      return {
        [TOPIC]: [...store.topics.values()].map((topic) => ({
          id: topic.arn,
          region: topic.region,
          fifo: topic.attributes.FifoTopic === 'true',
          subscriptionCount: store.subscriptionsOf(topic.arn).length,
        })),
        // One made by its topic's Subscription property is part of the topic, as the template has it.
        [SUBSCRIPTION]: [...store.subscriptions.values()]
          .filter((s) => !s.viaTopic)
          .map((s) => ({
            id: s.arn,
            region: s.region,
            topicArn: s.topicArn,
            protocol: s.protocol,
            endpoint: s.endpoint,
          })),
        [TOPIC_POLICY]: policies.inventory(),
      };
    },
  };
  return module;
};

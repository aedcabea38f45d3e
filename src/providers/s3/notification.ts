import type { NotificationConfiguration, NotificationConfigurationFilter } from '@aws-sdk/client-s3';
import type { JsonObject } from '../provider.js';
import { defined, listOf, objectOf, type Shape } from './shapes.js';

const FILTER: Shape = { S3Key: { Rules: { Name: true, Value: true } } };

/** The parts of AWS::S3::Bucket NotificationConfiguration this provider maps. */
export const NOTIFICATION_SHAPE: Shape = {
  TopicConfigurations: { Event: true, Topic: true, Filter: FILTER },
  QueueConfigurations: { Event: true, Queue: true, Filter: FILTER },
  LambdaConfigurations: { Event: true, Function: true, Filter: FILTER },
  EventBridgeConfiguration: { EventBridgeEnabled: true },
};

function filterOf(value: unknown): NotificationConfigurationFilter | undefined {
  const rules = listOf(objectOf(objectOf(value).S3Key).Rules);
  if (rules.length === 0) return undefined;
  return {
    Key: {
      FilterRules: rules.map((rule) => ({ Name: String(rule.Name) as 'prefix', Value: String(rule.Value) })),
    },
  };
}

function cfnFilter(filter: NotificationConfigurationFilter | undefined): JsonObject | undefined {
  const rules = filter?.Key?.FilterRules ?? [];
  return rules.length === 0
    ? undefined
    : { S3Key: { Rules: rules.map((r) => ({ Name: r.Name, Value: r.Value })) } };
}

/** CloudFormation's one-event-per-entry configurations as the API's lists of events. */
export function notificationConfiguration(value: JsonObject): NotificationConfiguration {
  const entries = (name: string) => listOf(value[name]);
  const eventBridge = objectOf(value.EventBridgeConfiguration);
  return defined({
    TopicConfigurations: orUndefined(
      entries('TopicConfigurations').map((c) =>
        defined({
          TopicArn: String(c.Topic),
          Events: [String(c.Event) as never],
          Filter: filterOf(c.Filter),
        }),
      ),
    ),
    QueueConfigurations: orUndefined(
      entries('QueueConfigurations').map((c) =>
        defined({
          QueueArn: String(c.Queue),
          Events: [String(c.Event) as never],
          Filter: filterOf(c.Filter),
        }),
      ),
    ),
    LambdaFunctionConfigurations: orUndefined(
      entries('LambdaConfigurations').map((c) =>
        defined({
          LambdaFunctionArn: String(c.Function),
          Events: [String(c.Event) as never],
          Filter: filterOf(c.Filter),
        }),
      ),
    ),
    EventBridgeConfiguration: String(eventBridge.EventBridgeEnabled) === 'true' ? {} : undefined,
  });
}

function orUndefined<T>(list: T[]): T[] | undefined {
  return list.length > 0 ? list : undefined;
}

/** The API's configuration in CloudFormation's shape (one entry per event); undefined when empty. */
export function cfnNotification(configuration: NotificationConfiguration): JsonObject | undefined {
  const expand = <C extends { Events?: string[]; Filter?: NotificationConfigurationFilter }>(
    list: C[] | undefined,
    target: string,
    arn: (c: C) => string | undefined,
  ) =>
    (list ?? []).flatMap((c) =>
      (c.Events ?? []).map((Event) => defined({ Event, [target]: arn(c), Filter: cfnFilter(c.Filter) })),
    );
  const result = defined({
    TopicConfigurations: orUndefined(expand(configuration.TopicConfigurations, 'Topic', (c) => c.TopicArn)),
    QueueConfigurations: orUndefined(expand(configuration.QueueConfigurations, 'Queue', (c) => c.QueueArn)),
    LambdaConfigurations: orUndefined(
      expand(configuration.LambdaFunctionConfigurations, 'Function', (c) => c.LambdaFunctionArn),
    ),
    EventBridgeConfiguration: configuration.EventBridgeConfiguration
      ? { EventBridgeEnabled: true }
      : undefined,
  });
  return Object.keys(result).length > 0 ? result : undefined;
}

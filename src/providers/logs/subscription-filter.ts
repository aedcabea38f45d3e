import {
  DeleteSubscriptionFilterCommand,
  DescribeSubscriptionFiltersCommand,
  PutSubscriptionFilterCommand,
  type Distribution,
  type SubscriptionFilter,
} from '@aws-sdk/client-cloudwatch-logs';
import { optionalText } from './common.js';
import type { LogsFilterDescription } from './filter-family.js';

export const SUBSCRIPTION_FILTER = 'AWS::Logs::SubscriptionFilter';

/** AWS::Logs::SubscriptionFilter. */
export const SUBSCRIPTION_FILTER_DESCRIPTION: LogsFilterDescription<SubscriptionFilter> = {
  type: SUBSCRIPTION_FILTER,
  covered: ['FilterName', 'LogGroupName', 'DestinationArn', 'FilterPattern', 'RoleArn', 'Distribution'],
  put: (client, name, props, options) =>
    client.send(
      new PutSubscriptionFilterCommand({
        logGroupName: String(props.LogGroupName),
        filterName: name,
        filterPattern: String(props.FilterPattern ?? ''),
        destinationArn: String(props.DestinationArn),
        roleArn: optionalText(props.RoleArn),
        distribution: optionalText(props.Distribution) as Distribution | undefined,
      }),
      options,
    ),
  describe: async (client, logGroupName, prefix) =>
    (await client.send(new DescribeSubscriptionFiltersCommand({ logGroupName, filterNamePrefix: prefix })))
      .subscriptionFilters,
  delete: (client, logGroupName, filterName, options) =>
    client.send(new DeleteSubscriptionFilterCommand({ logGroupName, filterName }), options),
  observed: (filter) => ({
    DestinationArn: filter.destinationArn,
    FilterPattern: filter.filterPattern,
    Distribution: filter.distribution,
    ...(filter.roleArn !== undefined ? { RoleArn: filter.roleArn } : {}),
  }),
};

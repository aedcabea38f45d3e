import {
  DeleteSubscriptionFilterCommand,
  DescribeSubscriptionFiltersCommand,
  PutSubscriptionFilterCommand,
  type Distribution,
  type SubscriptionFilter,
} from '@aws-sdk/client-cloudwatch-logs';

import { tokenPhysicalName } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
} from '../provider.js';
import { isNotFound, optionalText } from './common.js';
import { logsClient } from './log-group.js';
import { FILTER_NAME_RULES, locateFilter } from './metric-filter.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const SUBSCRIPTION_FILTER = 'AWS::Logs::SubscriptionFilter';

const COVERED = new Set([
  'FilterName',
  'LogGroupName',
  'DestinationArn',
  'FilterPattern',
  'RoleArn',
  'Distribution',
]);

/** AWS::Logs::SubscriptionFilter. Physical id and Ref: the filter name; its group comes from the properties. */
export class SubscriptionFilterProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: SUBSCRIPTION_FILTER, covered: COVERED };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const name =
      optionalText(request.properties.FilterName) ??
      tokenPhysicalName(context.stackName, request, FILTER_NAME_RULES);
    await this.put(name, request.properties, context);
    const logGroupName = String(request.properties.LogGroupName);
    const filter = await find(context, logGroupName, name);
    return {
      physicalId: name,
      attributes: {},
      creationIdentity: { logGroupName, creationTime: filter!.creationTime! },
      observed: observedOf(filter!, logGroupName),
    };
  }

  locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    return locateFilter(request, context, find);
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    await this.put(request.physicalId, request.properties, context);
    // The put answers nothing, and the lookup a create makes for its identity is not needed here.
    return { physicalId: request.physicalId, attributes: {} };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    try {
      await client.send(
        new DeleteSubscriptionFilterCommand({
          logGroupName: String(request.properties.LogGroupName),
          filterName: request.physicalId,
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const logGroupName = String(request.properties.LogGroupName);
    const filter = await find(context, logGroupName, request.physicalId);
    if (!filter) return undefined;
    return {
      properties: observedOf(filter, logGroupName),
      attributes: {},
      creationIdentity: { logGroupName, creationTime: filter.creationTime! },
    };
  }

  private async put(name: string, props: JsonObject, context: ProviderContext): Promise<void> {
    const client = await logsClient(context);
    await client.send(
      new PutSubscriptionFilterCommand({
        logGroupName: String(props.LogGroupName),
        filterName: name,
        filterPattern: String(props.FilterPattern ?? ''),
        destinationArn: String(props.DestinationArn),
        roleArn: optionalText(props.RoleArn),
        distribution: optionalText(props.Distribution) as Distribution | undefined,
      }),
      { abortSignal: context.signal },
    );
  }
}

async function find(
  context: ProviderContext,
  logGroupName: string,
  filterName: string,
): Promise<SubscriptionFilter | undefined> {
  const client = await logsClient(context);
  try {
    const output = await client.send(
      new DescribeSubscriptionFiltersCommand({ logGroupName, filterNamePrefix: filterName }),
    );
    return output.subscriptionFilters?.find((filter) => filter.filterName === filterName);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The filter as the create's own lookup (which its identity needs) finds it. */
function observedOf(filter: SubscriptionFilter, logGroupName: string): JsonObject {
  return {
    FilterName: filter.filterName,
    LogGroupName: logGroupName,
    DestinationArn: filter.destinationArn,
    FilterPattern: filter.filterPattern,
    Distribution: filter.distribution,
    ...(filter.roleArn !== undefined ? { RoleArn: filter.roleArn } : {}),
  };
}

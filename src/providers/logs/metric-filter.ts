import {
  DeleteMetricFilterCommand,
  DescribeMetricFiltersCommand,
  PutMetricFilterCommand,
  type MetricFilter,
  type MetricTransformation,
  type StandardUnit,
} from '@aws-sdk/client-cloudwatch-logs';

import { nameFromToken, tokenPhysicalName } from '../physical-names.js';
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
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const METRIC_FILTER = 'AWS::Logs::MetricFilter';

const COVERED = new Set([
  'FilterName',
  'FilterPattern',
  'LogGroupName',
  'MetricTransformations',
  'ApplyOnTransformedLogs',
]);

/** Filter names take anything but `:` and `*`. */
export const FILTER_NAME_RULES = { maxLength: 512, extraCharacters: '-_./#' };

/** The filter a create with this token put (metric or subscription): its generated name derives from the token. */
export async function locateFilter(
  request: ResourceRequest,
  context: ProviderContext,
  find: (context: ProviderContext, logGroupName: string, name: string) => Promise<unknown>,
): Promise<LocateAnswer> {
  if (!nameFromToken(request.properties.FilterName, request)) return 'unknown';
  const name = tokenPhysicalName(context.stackName, request, FILTER_NAME_RULES);
  const filter = await find(context, String(request.properties.LogGroupName), name);
  return filter ? { physicalId: name } : 'none';
}

/** AWS::Logs::MetricFilter. Physical id and Ref: the filter name; its group comes from the properties. */
export class MetricFilterProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: METRIC_FILTER, covered: COVERED };

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
        new DeleteMetricFilterCommand({
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
      new PutMetricFilterCommand({
        logGroupName: String(props.LogGroupName),
        filterName: name,
        filterPattern: String(props.FilterPattern ?? ''),
        metricTransformations: (props.MetricTransformations as JsonObject[]).map(toApi),
        ...(props.ApplyOnTransformedLogs !== undefined
          ? { applyOnTransformedLogs: String(props.ApplyOnTransformedLogs) === 'true' }
          : {}),
      }),
      { abortSignal: context.signal },
    );
  }
}

async function find(
  context: ProviderContext,
  logGroupName: string,
  filterName: string,
): Promise<MetricFilter | undefined> {
  const client = await logsClient(context);
  try {
    const output = await client.send(
      new DescribeMetricFiltersCommand({ logGroupName, filterNamePrefix: filterName }),
    );
    return output.metricFilters?.find((filter) => filter.filterName === filterName);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** CloudFormation's MetricTransformation (Dimensions as a Key/Value list, numbers maybe strings). */
function toApi(t: JsonObject): MetricTransformation {
  const dimensions = t.Dimensions as Array<{ Key: string; Value: string }> | undefined;
  return {
    metricName: String(t.MetricName),
    metricNamespace: String(t.MetricNamespace),
    metricValue: String(t.MetricValue),
    ...(t.DefaultValue !== undefined ? { defaultValue: Number(t.DefaultValue) } : {}),
    ...(dimensions ? { dimensions: Object.fromEntries(dimensions.map((d) => [d.Key, d.Value])) } : {}),
    ...(t.Unit !== undefined ? { unit: String(t.Unit) as StandardUnit } : {}),
  };
}

function fromApi(t: MetricTransformation): JsonObject {
  return {
    MetricName: t.metricName,
    MetricNamespace: t.metricNamespace,
    MetricValue: t.metricValue,
    ...(t.defaultValue !== undefined ? { DefaultValue: t.defaultValue } : {}),
    ...(t.dimensions
      ? { Dimensions: Object.entries(t.dimensions).map(([Key, Value]) => ({ Key, Value })) }
      : {}),
    ...(t.unit !== undefined ? { Unit: t.unit } : {}),
  };
}

/** The filter as the create's own lookup (which its identity needs) finds it. */
function observedOf(filter: MetricFilter, logGroupName: string): JsonObject {
  return {
    FilterName: filter.filterName,
    LogGroupName: logGroupName,
    FilterPattern: filter.filterPattern,
    MetricTransformations: (filter.metricTransformations ?? []).map(fromApi),
    ...(filter.applyOnTransformedLogs !== undefined
      ? { ApplyOnTransformedLogs: filter.applyOnTransformedLogs }
      : {}),
  };
}

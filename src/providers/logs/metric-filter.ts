import {
  DeleteMetricFilterCommand,
  DescribeMetricFiltersCommand,
  PutMetricFilterCommand,
  type MetricFilter,
  type MetricTransformation,
  type StandardUnit,
} from '@aws-sdk/client-cloudwatch-logs';
import type { JsonObject } from '../provider.js';
import type { LogsFilterDescription } from './filter-family.js';

export const METRIC_FILTER = 'AWS::Logs::MetricFilter';

/** AWS::Logs::MetricFilter. */
export const METRIC_FILTER_DESCRIPTION: LogsFilterDescription<MetricFilter> = {
  type: METRIC_FILTER,
  covered: ['FilterName', 'FilterPattern', 'LogGroupName', 'MetricTransformations', 'ApplyOnTransformedLogs'],
  put: (client, name, props, options) =>
    client.send(
      new PutMetricFilterCommand({
        logGroupName: String(props.LogGroupName),
        filterName: name,
        filterPattern: String(props.FilterPattern ?? ''),
        metricTransformations: (props.MetricTransformations as JsonObject[]).map(toApi),
        ...(props.ApplyOnTransformedLogs !== undefined
          ? { applyOnTransformedLogs: String(props.ApplyOnTransformedLogs) === 'true' }
          : {}),
      }),
      options,
    ),
  describe: async (client, logGroupName, prefix) =>
    (await client.send(new DescribeMetricFiltersCommand({ logGroupName, filterNamePrefix: prefix })))
      .metricFilters,
  delete: (client, logGroupName, filterName, options) =>
    client.send(new DeleteMetricFilterCommand({ logGroupName, filterName }), options),
  observed: (filter) => ({
    FilterPattern: filter.filterPattern,
    MetricTransformations: (filter.metricTransformations ?? []).map(fromApi),
    ...(filter.applyOnTransformedLogs !== undefined
      ? { ApplyOnTransformedLogs: filter.applyOnTransformedLogs }
      : {}),
  }),
};

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

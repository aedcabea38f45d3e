import { optionalString, requiredString } from '../../protocols/json.js';
import { page, requireGroup, type LogsCall } from './group-ops.js';
import { logsErrors } from './logs-errors.js';
import type { LogGroupRecord } from './store.js';

const METRIC_FILTERS_PER_GROUP = 100;
const SUBSCRIPTION_FILTERS_PER_GROUP = 2;

/** Creates or replaces a metric filter (AWS treats a put of an existing name as an update). */
export async function putMetricFilter(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const filterName = requiredString(call.input, 'filterName', 'InvalidParameterException');
  const transformations = call.input.metricTransformations;
  if (!Array.isArray(transformations) || transformations.length !== 1) {
    throw logsErrors.invalidParameter('metricTransformations must hold exactly one transformation.');
  }
  const others = group.metricFilters.filter((filter) => filter.filterName !== filterName);
  if (others.length >= METRIC_FILTERS_PER_GROUP) throw logsErrors.limitExceeded('Resource limit exceeded.');
  const existing = group.metricFilters.find((filter) => filter.filterName === filterName);
  const applyOnTransformedLogs = call.input.applyOnTransformedLogs;
  await call.store.save({
    ...group,
    metricFilters: [
      ...others,
      {
        filterName,
        filterPattern: optionalString(call.input, 'filterPattern') ?? '',
        metricTransformations: transformations,
        creationTime: existing?.creationTime ?? Date.now(),
        ...(typeof applyOnTransformedLogs === 'boolean' ? { applyOnTransformedLogs } : {}),
      },
    ],
  });
  return {};
}

export async function deleteMetricFilter(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const filterName = requiredString(call.input, 'filterName', 'InvalidParameterException');
  if (!group.metricFilters.some((filter) => filter.filterName === filterName))
    throw logsErrors.filterNotFound();
  await call.store.save({
    ...group,
    metricFilters: group.metricFilters.filter((filter) => filter.filterName !== filterName),
  });
  return {};
}

export async function describeMetricFilters(call: LogsCall): Promise<unknown> {
  const groupName = optionalString(call.input, 'logGroupName');
  const groups: LogGroupRecord[] =
    groupName !== undefined ? [requireGroup(call)] : call.store.list(call.region);
  const prefix = optionalString(call.input, 'filterNamePrefix') ?? '';
  const filters = groups.flatMap((group) =>
    group.metricFilters
      .filter((filter) => filter.filterName.startsWith(prefix))
      .map((filter) => ({ ...filter, logGroupName: group.name })),
  );
  const { items, nextToken } = page(filters, call.input, 50);
  return { metricFilters: items, ...(nextToken !== undefined ? { nextToken } : {}) };
}

export async function putSubscriptionFilter(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const filterName = requiredString(call.input, 'filterName', 'InvalidParameterException');
  const destinationArn = requiredString(call.input, 'destinationArn', 'InvalidParameterException');
  const others = group.subscriptionFilters.filter((filter) => filter.filterName !== filterName);
  if (others.length >= SUBSCRIPTION_FILTERS_PER_GROUP) {
    throw logsErrors.limitExceeded('Resource limit exceeded.');
  }
  const existing = group.subscriptionFilters.find((filter) => filter.filterName === filterName);
  const roleArn = optionalString(call.input, 'roleArn');
  await call.store.save({
    ...group,
    subscriptionFilters: [
      ...others,
      {
        filterName,
        filterPattern: optionalString(call.input, 'filterPattern') ?? '',
        destinationArn,
        ...(roleArn !== undefined ? { roleArn } : {}),
        distribution: optionalString(call.input, 'distribution') ?? 'ByLogStream',
        creationTime: existing?.creationTime ?? Date.now(),
      },
    ],
  });
  return {};
}

export async function deleteSubscriptionFilter(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const filterName = requiredString(call.input, 'filterName', 'InvalidParameterException');
  if (!group.subscriptionFilters.some((filter) => filter.filterName === filterName)) {
    throw logsErrors.filterNotFound();
  }
  await call.store.save({
    ...group,
    subscriptionFilters: group.subscriptionFilters.filter((filter) => filter.filterName !== filterName),
  });
  return {};
}

export async function describeSubscriptionFilters(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const prefix = optionalString(call.input, 'filterNamePrefix') ?? '';
  const filters = group.subscriptionFilters
    .filter((filter) => filter.filterName.startsWith(prefix))
    .map((filter) => ({ ...filter, logGroupName: group.name }));
  const { items, nextToken } = page(filters, call.input, 50);
  return { subscriptionFilters: items, ...(nextToken !== undefined ? { nextToken } : {}) };
}

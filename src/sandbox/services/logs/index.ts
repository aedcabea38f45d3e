import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { LogEventStore } from './event-store.js';
import * as events from './event-ops.js';
import * as filters from './filter-ops.js';
import * as groups from './group-ops.js';
import { exposeLogWriter } from './log-writer.js';
import { logsErrors } from './logs-errors.js';
import { logGroupResourceHandler } from './log-group-resource.js';
import { ResourcePolicies } from './resource-policies.js';
import { LogGroupStore } from './store.js';

const HANDLERS: Record<string, (call: groups.LogsCall) => Promise<unknown>> = {
  CreateLogGroup: groups.createLogGroup,
  DeleteLogGroup: groups.deleteLogGroup,
  DescribeLogGroups: groups.describeLogGroups,
  PutRetentionPolicy: groups.putRetentionPolicy,
  DeleteRetentionPolicy: groups.deleteRetentionPolicy,
  AssociateKmsKey: groups.associateKmsKey,
  DisassociateKmsKey: groups.disassociateKmsKey,
  TagResource: groups.tagResource,
  UntagResource: groups.untagResource,
  ListTagsForResource: groups.listTagsForResource,
  PutDataProtectionPolicy: groups.putDataProtectionPolicy,
  GetDataProtectionPolicy: groups.getDataProtectionPolicy,
  DeleteDataProtectionPolicy: groups.deleteDataProtectionPolicy,
  CreateLogStream: groups.createLogStream,
  DescribeLogStreams: groups.describeLogStreams,
  PutLogEvents: events.putLogEvents,
  GetLogEvents: events.getLogEvents,
  FilterLogEvents: events.filterLogEvents,
  PutMetricFilter: filters.putMetricFilter,
  DeleteMetricFilter: filters.deleteMetricFilter,
  DescribeMetricFilters: filters.describeMetricFilters,
  PutSubscriptionFilter: filters.putSubscriptionFilter,
  DeleteSubscriptionFilter: filters.deleteSubscriptionFilter,
  DescribeSubscriptionFilters: filters.describeSubscriptionFilters,
};

const READ_ONLY = /^(Describe|Get|List|Filter)/;

/** CloudWatch Logs over JSON 1.1 (`Logs_20140328.<Op>`): log groups, streams, their events, filters. */
export const createLogsService: ServiceModuleFactory = async (context) => {
  const store = await LogGroupStore.load(context.storage);
  const eventStore = await LogEventStore.load(context.storage);
  exposeLogWriter(context, store, eventStore);
  context.resources.register('AWS::Logs::LogGroup', logGroupResourceHandler(store, eventStore));
  const policies = await ResourcePolicies.load(context.storage);
  context.resources.register('AWS::Logs::ResourcePolicy', policies.resourceHandler());
  const policyOps: Record<string, (region: string, input: Record<string, unknown>) => unknown> = {
    PutResourcePolicy: (region, input) => policies.put(region, input),
    DeleteResourcePolicy: (region, input) => policies.delete(region, input),
    DescribeResourcePolicies: (region) => policies.describe(region),
  };
  const module: ServiceModule = {
    name: 'logs',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'Logs_20140328'),
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const policyOp = policyOps[operation];
      if (policyOp) return jsonResult('1.1', await policyOp(request.region, jsonInput(request)));
      const handler = HANDLERS[operation];
      if (!handler) throw logsErrors.unknownOperation(operation);
      const call = {
        store,
        events: eventStore,
        accountId: request.accountId,
        region: request.region,
        input: jsonInput(request),
      };
      return jsonResult('1.1', await handler(call));
    },
    inventory() {
      const all = store.all();
      return {
        'AWS::Logs::ResourcePolicy': policies.all(),
        'AWS::Logs::LogGroup': all.map((group) => ({
          id: group.name,
          region: group.region,
          ...(group.retentionInDays !== undefined ? { retentionInDays: group.retentionInDays } : {}),
        })),
        'AWS::Logs::MetricFilter': all.flatMap((group) =>
          group.metricFilters.map((filter) => ({
            id: filter.filterName,
            region: group.region,
            logGroupName: group.name,
          })),
        ),
        'AWS::Logs::SubscriptionFilter': all.flatMap((group) =>
          group.subscriptionFilters.map((filter) => ({
            id: filter.filterName,
            region: group.region,
            logGroupName: group.name,
          })),
        ),
      };
    },
  };
  return module;
};

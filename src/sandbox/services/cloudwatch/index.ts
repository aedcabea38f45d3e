import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as ops from './alarm-ops.js';
import { ALARM, alarmResourceHandler, COMPOSITE_ALARM } from './alarm-resource.js';
import { cloudWatchErrors } from './cloudwatch-errors.js';
import { alarmArn, AlarmStore } from './store.js';

const HANDLERS: Record<string, (call: ops.CloudWatchCall) => Promise<unknown>> = {
  PutMetricAlarm: ops.putMetricAlarm,
  PutCompositeAlarm: ops.putCompositeAlarm,
  DescribeAlarms: ops.describeAlarms,
  DeleteAlarms: ops.deleteAlarms,
  TagResource: ops.tagResource,
  UntagResource: ops.untagResource,
  ListTagsForResource: ops.listTagsForResource,
};

const READ_ONLY = new Set(['DescribeAlarms', 'ListTagsForResource']);

/**
 * CloudWatch metric and composite alarms over JSON 1.0 (`GraniteServiceVersion20100801.<Op>`,
 * which the SDK speaks, query-compatible); also serves both alarm types to Cloud Control.
 */
export const createCloudWatchService: ServiceModuleFactory = async (context) => {
  const store = await AlarmStore.load(context.storage);
  const now = Date.now;
  context.resources.register(ALARM, alarmResourceHandler(store, now, ALARM));
  context.resources.register(COMPOSITE_ALARM, alarmResourceHandler(store, now, COMPOSITE_ALARM));
  const module: ServiceModule = {
    name: 'monitoring',
    codec: jsonCodec('1.0'),
    operation: (request) => jsonOperation(request, 'GraniteServiceVersion20100801'),
    isMutating: (operation) => !READ_ONLY.has(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw cloudWatchErrors.invalidAction(operation);
      return jsonResult('1.0', await handler({ store, request, input: jsonInput(request), now }));
    },
    inventory() {
      const entries = (composite: boolean) =>
        store
          .all()
          .filter((alarm) => (alarm.composite ?? false) === composite)
          .map((alarm) => ({
            id: alarm.name,
            region: alarm.region,
            arn: alarmArn(alarm),
            tags: alarm.tags.length,
          }));
      return { [ALARM]: entries(false), [COMPOSITE_ALARM]: entries(true) };
    },
  };
  return module;
};

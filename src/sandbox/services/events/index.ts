import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as buses from './bus-ops.js';
import { eventsErrors } from './events-errors.js';
import * as rules from './rule-ops.js';
import { busArn, EventsStore, ruleArn } from './store.js';

const HANDLERS: Record<string, (call: buses.EventsCall) => Promise<unknown>> = {
  CreateEventBus: buses.createEventBus,
  DescribeEventBus: buses.describeEventBus,
  UpdateEventBus: buses.updateEventBus,
  DeleteEventBus: buses.deleteEventBus,
  TagResource: buses.tagResource,
  UntagResource: buses.untagResource,
  ListTagsForResource: buses.listTagsForResource,
  PutRule: rules.putRule,
  DescribeRule: rules.describeRule,
  DeleteRule: rules.deleteRule,
  PutTargets: rules.putTargets,
  RemoveTargets: rules.removeTargets,
  ListTargetsByRule: rules.listTargetsByRule,
};

const READ_ONLY = /^(Describe|List)/;

/** EventBridge over JSON 1.1 (`AWSEvents.<Op>`): event buses, rules and their targets. */
export const createEventsService: ServiceModuleFactory = async (context) => {
  const store = await EventsStore.load(context.storage);
  const module: ServiceModule = {
    name: 'events',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'AWSEvents'),
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw eventsErrors.unknownOperation(operation);
      const call = { store, accountId: request.accountId, region: request.region, input: jsonInput(request) };
      return jsonResult('1.1', await handler(call));
    },
    inventory() {
      return {
        'AWS::Events::EventBus': store
          .allBuses()
          .map((bus) => ({ id: bus.name, region: bus.region, arn: busArn(bus, context.accountId) })),
        'AWS::Events::Rule': store.allRules().map((rule) => ({
          id: ruleArn(rule, context.accountId),
          region: rule.region,
          targets: rule.targets.length,
        })),
      };
    },
  };
  return module;
};

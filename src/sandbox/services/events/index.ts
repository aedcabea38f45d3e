import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as buses from './bus-ops.js';
import { eventsErrors } from './events-errors.js';
import * as rules from './rule-ops.js';
import { eventBus } from '../../ports/index.js';
import { EventRouter } from './router.js';
import { RuleSchedules } from './rule-schedules.js';
import { busArn, EventsStore, ruleArn, type RuleRecord } from './store.js';

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
  ListRules: rules.listRules,
  EnableRule: rules.enableRule,
  DisableRule: rules.disableRule,
  TestEventPattern: rules.testEventPattern,
  PutEvents: putEvents,
};

async function putEvents(call: buses.EventsCall): Promise<unknown> {
  const entries = (call.input.Entries as Array<Record<string, unknown>> | undefined) ?? [];
  if (entries.length < 1 || entries.length > 10) {
    throw eventsErrors.validation(
      `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and 10`,
    );
  }
  const results = await call.router.putEntries(call, entries);
  return { FailedEntryCount: results.filter((result) => result.ErrorCode).length, Entries: results };
}

const READ_ONLY = /^(Describe|List|Test)/;

/**
 * EventBridge over JSON 1.1 (`AWSEvents.<Op>`): event buses, rules and their targets;
 * PutEvents routes events to the targets of matching rules, and scheduled rules fire on
 * the sandbox's clock (router.ts, rule-schedules.ts).
 */
export const createEventsService: ServiceModuleFactory = async (context) => {
  const store = await EventsStore.load(context.storage);
  const router = new EventRouter(context, store);
  const accountOf = (rule: RuleRecord) => rule.accountId ?? context.accountId;
  const current = (rule: RuleRecord) => store.getRule(rule.region, rule.busName, rule.name);
  const schedules = new RuleSchedules(context, router, accountOf, current);
  eventBus.expose(context, { put: (arn, entries, caller) => router.putFromService(arn, entries, caller) });
  const module: ServiceModule = {
    name: 'events',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'AWSEvents'),
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw eventsErrors.unknownOperation(operation);
      const call = {
        store,
        context,
        router,
        schedules,
        accountId: request.accountId,
        region: request.region,
        input: jsonInput(request),
      };
      return jsonResult('1.1', await handler(call));
    },
    started() {
      for (const rule of store.allRules()) schedules.arm(rule);
    },
    // Retries waiting on the clock end with it (the server closes the clock first).
    async close() {
      schedules.close();
    },
    inventory() {
      return {
        'AWS::Events::EventBus': store
          .allBuses()
          .map((bus) => ({ id: bus.name, region: bus.region, arn: busArn(bus, context.accountId) })),
        'AWS::Events::Rule': store.allRules().map((rule) => ({
          id: ruleArn(rule, accountOf(rule)),
          region: rule.region,
          state: rule.state,
          ...(rule.scheduleExpression !== undefined ? { schedule: rule.scheduleExpression } : {}),
          targets: rule.targets.length,
        })),
      };
    },
  };
  return module;
};

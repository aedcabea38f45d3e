import { optionalString, requiredString } from '../../protocols/json.js';
import { busName, type EventsCall } from './bus-ops.js';
import { eventsErrors } from './events-errors.js';
import { matchesPattern, parsePattern, PatternError, type Pattern } from '../../patterns/event-pattern.js';
import { parseScheduleExpression } from '../../schedules/expression.js';
import { ruleArn, type RuleRecord } from './store.js';

const RULE_NAME = /^[.\-_A-Za-z0-9]{1,64}$/;
const TARGETS_PER_RULE = 5;
const STATES = new Set(['ENABLED', 'DISABLED', 'ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS']);

function requireRule(call: EventsCall, member: 'Name' | 'Rule'): RuleRecord {
  const name = requiredString(call.input, member);
  const bus = busName(optionalString(call.input, 'EventBusName'));
  const rule = call.store.getRule(call.region, bus, name);
  if (!rule) throw eventsErrors.ruleNotFound(name, bus);
  return rule;
}

/** Creates or updates a rule (PutRule is both). */
export async function putRule(call: EventsCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  if (!RULE_NAME.test(name)) throw eventsErrors.validation(`Rule name ${name} is not valid.`);
  const bus = busName(optionalString(call.input, 'EventBusName'));
  if (!call.store.getBus(call.region, bus)) throw eventsErrors.busNotFound(bus);
  const eventPattern = optionalString(call.input, 'EventPattern');
  const scheduleExpression = optionalString(call.input, 'ScheduleExpression');
  if (eventPattern === undefined && scheduleExpression === undefined) {
    throw eventsErrors.validation('Parameter(s) EventPattern or ScheduleExpression must be specified.');
  }
  if (eventPattern !== undefined) checkedPattern(eventPattern);
  if (scheduleExpression !== undefined && bus !== 'default') {
    throw eventsErrors.validation('ScheduleExpression is supported only on the default event bus.');
  }
  if (scheduleExpression !== undefined) {
    try {
      parseScheduleExpression(scheduleExpression);
    } catch {
      throw eventsErrors.validation('Parameter ScheduleExpression is not valid.');
    }
  }
  const state = optionalString(call.input, 'State') ?? 'ENABLED';
  if (!STATES.has(state)) throw eventsErrors.validation(`State ${state} is not valid.`);
  const existing = call.store.getRule(call.region, bus, name);
  const description = optionalString(call.input, 'Description');
  const roleArn = optionalString(call.input, 'RoleArn');
  const rule: RuleRecord = {
    name,
    busName: bus,
    region: call.region,
    accountId: call.accountId,
    ...(eventPattern !== undefined ? { eventPattern } : {}),
    ...(scheduleExpression !== undefined ? { scheduleExpression } : {}),
    state,
    ...(description !== undefined ? { description } : {}),
    ...(roleArn !== undefined ? { roleArn } : {}),
    targets: existing?.targets ?? [],
    tags: existing?.tags ?? (call.input.Tags as RuleRecord['tags'] | undefined) ?? [],
  };
  await call.store.saveRule(rule);
  call.schedules.arm(rule);
  return { RuleArn: ruleArn(rule, call.accountId) };
}

function checkedPattern(text: string): Pattern {
  try {
    return parsePattern(text);
  } catch (error) {
    if (error instanceof PatternError) throw eventsErrors.invalidPattern(error.message);
    throw error;
  }
}

/** Whether an event (JSON text) matches a pattern, as a rule would see it. */
export async function testEventPattern(call: EventsCall): Promise<unknown> {
  const pattern = checkedPattern(requiredString(call.input, 'EventPattern'));
  let event: unknown;
  try {
    event = JSON.parse(requiredString(call.input, 'Event'));
  } catch {
    throw eventsErrors.validation('Parameter Event is not valid.');
  }
  return { Result: matchesPattern(pattern, event) };
}

async function setState(call: EventsCall, state: 'ENABLED' | 'DISABLED'): Promise<unknown> {
  const rule = { ...requireRule(call, 'Name'), state };
  await call.store.saveRule(rule);
  call.schedules.arm(rule);
  return {};
}

export const enableRule = (call: EventsCall) => setState(call, 'ENABLED');
export const disableRule = (call: EventsCall) => setState(call, 'DISABLED');

export async function listRules(call: EventsCall): Promise<unknown> {
  const bus = busName(optionalString(call.input, 'EventBusName'));
  const prefix = optionalString(call.input, 'NamePrefix') ?? '';
  const rules = call.store.rulesOn(call.region, bus).filter((rule) => rule.name.startsWith(prefix));
  return {
    Rules: rules
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((rule) => ({
        Name: rule.name,
        Arn: ruleArn(rule, call.accountId),
        EventBusName: rule.busName,
        State: rule.state,
        ...(rule.eventPattern !== undefined ? { EventPattern: rule.eventPattern } : {}),
        ...(rule.scheduleExpression !== undefined ? { ScheduleExpression: rule.scheduleExpression } : {}),
      })),
  };
}

export async function describeRule(call: EventsCall): Promise<unknown> {
  const rule = requireRule(call, 'Name');
  return {
    Name: rule.name,
    Arn: ruleArn(rule, call.accountId),
    EventBusName: rule.busName,
    State: rule.state,
    CreatedBy: call.accountId,
    ...(rule.eventPattern !== undefined ? { EventPattern: rule.eventPattern } : {}),
    ...(rule.scheduleExpression !== undefined ? { ScheduleExpression: rule.scheduleExpression } : {}),
    ...(rule.description !== undefined ? { Description: rule.description } : {}),
    ...(rule.roleArn !== undefined ? { RoleArn: rule.roleArn } : {}),
  };
}

/** Deleting a missing rule succeeds, as in EventBridge; a rule with targets cannot go. */
export async function deleteRule(call: EventsCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  const bus = busName(optionalString(call.input, 'EventBusName'));
  const rule = call.store.getRule(call.region, bus, name);
  if (!rule) return {};
  if (rule.targets.length > 0) throw eventsErrors.validation("Rule can't be deleted since it has targets.");
  call.schedules.disarm(rule);
  await call.store.deleteRule(rule);
  return {};
}

export async function putTargets(call: EventsCall): Promise<unknown> {
  const rule = requireRule(call, 'Rule');
  const targets = (call.input.Targets as RuleRecord['targets'] | undefined) ?? [];
  const ids = new Set(targets.map((target) => target.Id));
  const merged = [...rule.targets.filter((target) => !ids.has(target.Id)), ...targets];
  if (merged.length > TARGETS_PER_RULE) {
    throw eventsErrors.limitExceeded(
      `The requested resource exceeds the maximum number allowed (${TARGETS_PER_RULE} targets per rule).`,
    );
  }
  await call.store.saveRule({ ...rule, targets: merged });
  return { FailedEntryCount: 0, FailedEntries: [] };
}

export async function removeTargets(call: EventsCall): Promise<unknown> {
  const rule = requireRule(call, 'Rule');
  const ids = new Set((call.input.Ids as string[] | undefined) ?? []);
  await call.store.saveRule({ ...rule, targets: rule.targets.filter((target) => !ids.has(target.Id)) });
  return { FailedEntryCount: 0, FailedEntries: [] };
}

export async function listTargetsByRule(call: EventsCall): Promise<unknown> {
  return { Targets: requireRule(call, 'Rule').targets };
}

import { optionalString, requiredString } from '../../protocols/json.js';
import { busName, type EventsCall } from './bus-ops.js';
import { eventsErrors } from './events-errors.js';
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
  if (eventPattern !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(eventPattern);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw eventsErrors.invalidPattern('Event pattern is not valid. Reason: it is not a JSON object.');
    }
  }
  if (scheduleExpression !== undefined && bus !== 'default') {
    throw eventsErrors.validation('ScheduleExpression is supported only on the default event bus.');
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
    ...(eventPattern !== undefined ? { eventPattern } : {}),
    ...(scheduleExpression !== undefined ? { scheduleExpression } : {}),
    state,
    ...(description !== undefined ? { description } : {}),
    ...(roleArn !== undefined ? { roleArn } : {}),
    targets: existing?.targets ?? [],
    tags: existing?.tags ?? (call.input.Tags as RuleRecord['tags'] | undefined) ?? [],
  };
  await call.store.saveRule(rule);
  return { RuleArn: ruleArn(rule, call.accountId) };
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

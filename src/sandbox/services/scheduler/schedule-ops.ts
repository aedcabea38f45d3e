import { SandboxError } from '../../errors.js';
import { parseScheduleExpression, ScheduleExpressionError } from '../../schedules/expression.js';
import { isTimeZone } from '../../schedules/time-zone.js';
import type { ApiCall } from '../api-module.js';
import type { ScheduleRunner } from './firing.js';
import {
  DEFAULT_GROUP,
  notFound,
  scheduleArn,
  type ScheduleRecord,
  type SchedulerStore,
  type SchedulerTarget,
} from './store.js';

const NAME = /^[0-9a-zA-Z-_.]{1,64}$/;

export const validation = (message: string) => new SandboxError('ValidationException', message, 400);

export function checkName(name: string, what: string): string {
  if (!NAME.test(name)) throw validation(`Invalid ${what} name ${name}: use 1 to 64 of [0-9a-zA-Z-_.].`);
  return name;
}

/** Seconds (REST-JSON's timestamps), an ISO string (a template's), or absent; epoch ms. */
function timeOf(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw validation(`Invalid ${name}: ${String(value)}.`);
  return ms;
}

function target(value: unknown): SchedulerTarget {
  const t = value as Partial<SchedulerTarget> | undefined;
  if (!t || typeof t.Arn !== 'string' || typeof t.RoleArn !== 'string') {
    throw validation('Target must have an Arn and a RoleArn.');
  }
  const given = t.RetryPolicy;
  // A template's numbers may arrive as strings.
  const retry = given && {
    ...(given.MaximumRetryAttempts !== undefined
      ? { MaximumRetryAttempts: Number(given.MaximumRetryAttempts) }
      : {}),
    ...(given.MaximumEventAgeInSeconds !== undefined
      ? { MaximumEventAgeInSeconds: Number(given.MaximumEventAgeInSeconds) }
      : {}),
  };
  if (
    retry?.MaximumRetryAttempts !== undefined &&
    (retry.MaximumRetryAttempts < 0 || retry.MaximumRetryAttempts > 185)
  ) {
    throw validation('RetryPolicy.MaximumRetryAttempts must be between 0 and 185.');
  }
  if (
    retry?.MaximumEventAgeInSeconds !== undefined &&
    (retry.MaximumEventAgeInSeconds < 60 || retry.MaximumEventAgeInSeconds > 86_400)
  ) {
    throw validation('RetryPolicy.MaximumEventAgeInSeconds must be between 60 and 86400.');
  }
  return { ...(t as SchedulerTarget), ...(retry ? { RetryPolicy: retry } : {}) };
}

/** A schedule as Create/UpdateSchedule (or a template) describe it, checked as Scheduler checks it. */
export function scheduleFrom(
  input: Record<string, unknown>,
  scope: { accountId: string; region: string; groupName: string; name: string },
  now: number,
  createdAt = now,
): ScheduleRecord {
  const expression = input.ScheduleExpression;
  if (typeof expression !== 'string') throw validation('ScheduleExpression is required.');
  try {
    parseScheduleExpression(expression);
  } catch (error) {
    if (error instanceof ScheduleExpressionError)
      throw validation(`Invalid Schedule Expression ${expression}.`);
    throw error;
  }
  const timezone = input.ScheduleExpressionTimezone;
  if (timezone !== undefined && (typeof timezone !== 'string' || !isTimeZone(timezone))) {
    throw validation(`Invalid ScheduleExpressionTimezone ${String(timezone)}.`);
  }
  const window = input.FlexibleTimeWindow as ScheduleRecord['flexibleTimeWindow'] | undefined;
  if (!window || (window.Mode !== 'OFF' && window.Mode !== 'FLEXIBLE')) {
    throw validation('FlexibleTimeWindow with Mode OFF or FLEXIBLE is required.');
  }
  if (window.Mode === 'FLEXIBLE') {
    const max = Number(window.MaximumWindowInMinutes);
    if (!Number.isInteger(max) || max < 1 || max > 1440) {
      throw validation('MaximumWindowInMinutes must be between 1 and 1440 for a FLEXIBLE window.');
    }
  }
  const state = input.State ?? 'ENABLED';
  if (state !== 'ENABLED' && state !== 'DISABLED') throw validation(`Invalid State ${String(state)}.`);
  const after = input.ActionAfterCompletion ?? 'NONE';
  if (after !== 'NONE' && after !== 'DELETE')
    throw validation(`Invalid ActionAfterCompletion ${String(after)}.`);
  const startDate = timeOf(input.StartDate, 'StartDate');
  const endDate = timeOf(input.EndDate, 'EndDate');
  if (startDate !== undefined && endDate !== undefined && endDate <= startDate) {
    throw validation('The EndDate must be after the StartDate.');
  }
  return {
    ...scope,
    scheduleExpression: expression,
    ...(typeof timezone === 'string' ? { timezone } : {}),
    ...(startDate !== undefined ? { startDate } : {}),
    ...(endDate !== undefined ? { endDate } : {}),
    state,
    ...(typeof input.Description === 'string' ? { description: input.Description } : {}),
    flexibleTimeWindow: window,
    target: target(input.Target),
    actionAfterCompletion: after,
    ...(typeof input.KmsKeyArn === 'string' ? { kmsKeyArn: input.KmsKeyArn } : {}),
    createdAt,
    modifiedAt: now,
  };
}

/** GetSchedule's answer (and Cloud Control's model, less what it renames). */
export function describeSchedule(s: ScheduleRecord) {
  return {
    Arn: scheduleArn(s),
    Name: s.name,
    GroupName: s.groupName,
    ScheduleExpression: s.scheduleExpression,
    ...(s.timezone ? { ScheduleExpressionTimezone: s.timezone } : {}),
    ...(s.startDate !== undefined ? { StartDate: s.startDate / 1000 } : {}),
    ...(s.endDate !== undefined ? { EndDate: s.endDate / 1000 } : {}),
    State: s.state,
    ...(s.description ? { Description: s.description } : {}),
    FlexibleTimeWindow: s.flexibleTimeWindow,
    Target: s.target,
    ActionAfterCompletion: s.actionAfterCompletion,
    ...(s.kmsKeyArn ? { KmsKeyArn: s.kmsKeyArn } : {}),
    CreationDate: s.createdAt / 1000,
    LastModificationDate: s.modifiedAt / 1000,
  };
}

/** Schedule operations over the store; every change re-arms the schedule's timer. */
export function scheduleOps(store: SchedulerStore, runner: ScheduleRunner, now: () => number) {
  const groupOf = (call: ApiCall): string => {
    const group = call.input.GroupName ?? call.request.query.get('groupName') ?? DEFAULT_GROUP;
    return String(group);
  };
  const requireGroup = (call: ApiCall, groupName: string) => {
    if (!store.group(call.accountId, call.region, groupName)) {
      throw notFound(`Schedule group ${groupName} does not exist.`);
    }
  };
  const existing = (call: ApiCall): ScheduleRecord => {
    const groupName = groupOf(call);
    const name = call.labels.Name!;
    const found = store.schedule(call.accountId, call.region, groupName, name);
    if (!found) throw notFound(`Schedule ${name} does not exist.`);
    return found;
  };
  return {
    async CreateSchedule(call: ApiCall) {
      const name = checkName(call.labels.Name!, 'schedule');
      const groupName = groupOf(call);
      requireGroup(call, groupName);
      if (store.schedule(call.accountId, call.region, groupName, name)) {
        throw new SandboxError('ConflictException', `Schedule ${name} already exists.`, 409);
      }
      const schedule = scheduleFrom(
        call.input,
        { accountId: call.accountId, region: call.region, groupName, name },
        now(),
      );
      await store.saveSchedule(schedule);
      runner.arm(schedule);
      return { ScheduleArn: scheduleArn(schedule) };
    },
    GetSchedule(call: ApiCall) {
      return describeSchedule(existing(call));
    },
    async UpdateSchedule(call: ApiCall) {
      const old = existing(call);
      const schedule = scheduleFrom(call.input, old, now(), old.createdAt);
      runner.disarm(old);
      await store.saveSchedule(schedule);
      runner.arm(schedule);
      return { ScheduleArn: scheduleArn(schedule) };
    },
    async DeleteSchedule(call: ApiCall) {
      const schedule = existing(call);
      runner.disarm(schedule);
      await store.deleteSchedule(schedule);
      return {};
    },
    ListSchedules(call: ApiCall) {
      const query = call.request.query;
      const group = query.get('ScheduleGroup');
      const prefix = query.get('NamePrefix') ?? '';
      const state = query.get('State');
      const schedules = store
        .schedulesIn(call.accountId, call.region)
        .filter((s) => (group === null || s.groupName === group) && s.name.startsWith(prefix))
        .filter((s) => state === null || s.state === state);
      return {
        Schedules: schedules.map((s) => ({
          Arn: scheduleArn(s),
          Name: s.name,
          GroupName: s.groupName,
          State: s.state,
          CreationDate: s.createdAt / 1000,
          LastModificationDate: s.modifiedAt / 1000,
          Target: { Arn: s.target.Arn },
        })),
      };
    },
  };
}

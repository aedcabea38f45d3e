import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import type { ScheduleRunner } from './firing.js';
import { createGroup, deleteGroup, describeGroup, tagsFrom } from './group-ops.js';
import { describeSchedule, scheduleFrom } from './schedule-ops.js';
import { DEFAULT_GROUP, type ScheduleRecord, type SchedulerStore } from './store.js';

export const SCHEDULE = 'AWS::Scheduler::Schedule';
export const SCHEDULE_GROUP = 'AWS::Scheduler::ScheduleGroup';

const generated = (prefix: string) => `${prefix}-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;

async function handlerErrors<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SandboxError) {
      throw new HandlerError(
        error.code === 'ConflictException'
          ? 'AlreadyExists'
          : error.code === 'ResourceNotFoundException'
            ? 'NotFound'
            : 'InvalidRequest',
        error.message,
      );
    }
    throw error;
  }
}

/** The template's properties of a schedule (dates as ISO strings; the API's own dates and ActionAfterCompletion are not in the type). */
const MODELLED = new Set(sandboxSchemaFor(SCHEDULE)!.props.concat('Arn'));

function scheduleModel(schedule: ScheduleRecord): ResourceModel {
  const described: ResourceModel = describeSchedule(schedule);
  for (const date of ['StartDate', 'EndDate']) {
    if (typeof described[date] === 'number') described[date] = new Date(described[date] * 1000).toISOString();
  }
  return Object.fromEntries(Object.entries(described).filter(([key]) => MODELLED.has(key)));
}

/**
 * AWS::Scheduler::Schedule for Cloud Control on the Scheduler module's store, identified by
 * its Name (looked up across the account's groups, as the type's identifier has no group).
 */
export function scheduleResourceHandler(
  store: SchedulerStore,
  runner: ScheduleRunner,
  now: () => number,
): ResourceHandler {
  const find = (name: string, region: string, accountId: string) =>
    store.schedulesIn(accountId, region).find((schedule) => schedule.name === name);
  return {
    async create(desired, region, accountId) {
      return handlerErrors(async () => {
        const name = typeof desired.Name === 'string' ? desired.Name : generated('Schedule');
        const groupName = typeof desired.GroupName === 'string' ? desired.GroupName : DEFAULT_GROUP;
        if (!store.group(accountId, region, groupName)) {
          throw new HandlerError('NotFound', `Schedule group ${groupName} does not exist.`);
        }
        if (find(name, region, accountId))
          throw new HandlerError('AlreadyExists', `Schedule ${name} already exists.`);
        const schedule = scheduleFrom(desired, { accountId, region, groupName, name }, now());
        await store.saveSchedule(schedule);
        runner.arm(schedule);
        return { identifier: name, model: scheduleModel(schedule) };
      });
    },
    read(identifier, region, accountId) {
      const schedule = find(identifier, region, accountId);
      return schedule ? scheduleModel(schedule) : undefined;
    },
    async update(identifier, desired, region, accountId) {
      return handlerErrors(async () => {
        const old = find(identifier, region, accountId);
        if (!old) throw new HandlerError('NotFound', `Schedule ${identifier} does not exist.`);
        const schedule = scheduleFrom(desired, old, now(), old.createdAt);
        runner.disarm(old);
        await store.saveSchedule(schedule);
        runner.arm(schedule);
        return scheduleModel(schedule);
      });
    },
    async delete(identifier, region, accountId) {
      const schedule = find(identifier, region, accountId);
      if (!schedule) throw new HandlerError('NotFound', `Schedule ${identifier} does not exist.`);
      runner.disarm(schedule);
      await store.deleteSchedule(schedule);
    },
    list(region, accountId) {
      return store
        .schedulesIn(accountId, region)
        .map((schedule) => ({ identifier: schedule.name, model: scheduleModel(schedule) }));
    },
  };
}

/** AWS::Scheduler::ScheduleGroup for Cloud Control; deleting one deletes its schedules. */
export function groupResourceHandler(
  store: SchedulerStore,
  runner: ScheduleRunner,
  now: () => number,
): ResourceHandler {
  const model = (name: string, region: string, accountId: string): ResourceModel | undefined => {
    const group = store.group(accountId, region, name);
    if (!group) return undefined;
    const tags = Object.entries(group.tags).map(([Key, Value]) => ({ Key, Value }));
    return { ...describeGroup(group), ...(tags.length > 0 ? { Tags: tags } : {}) };
  };
  return {
    async create(desired, region, accountId) {
      return handlerErrors(async () => {
        const name = typeof desired.Name === 'string' ? desired.Name : generated('ScheduleGroup');
        await createGroup(store, { accountId, region }, name, tagsFrom(desired.Tags), now());
        return { identifier: name, model: model(name, region, accountId)! };
      });
    },
    read: model,
    async update(identifier, desired, region, accountId) {
      const group = store.group(accountId, region, identifier);
      if (!group) throw new HandlerError('NotFound', `Schedule group ${identifier} does not exist.`);
      await handlerErrors(() =>
        store.saveGroup({ ...group, tags: tagsFrom(desired.Tags), modifiedAt: now() }),
      );
      return model(identifier, region, accountId)!;
    },
    async delete(identifier, region, accountId) {
      const group = store.group(accountId, region, identifier);
      if (!group) throw new HandlerError('NotFound', `Schedule group ${identifier} does not exist.`);
      await handlerErrors(() => deleteGroup(store, runner, group));
    },
    list(region, accountId) {
      return store
        .groupsIn(accountId, region)
        .map((group) => ({ identifier: group.name, model: model(group.name, region, accountId)! }));
    },
  };
}

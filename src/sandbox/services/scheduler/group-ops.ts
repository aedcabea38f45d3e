import { SandboxError } from '../../errors.js';
import type { ApiCall } from '../api-module.js';
import type { ScheduleRunner } from './firing.js';
import { checkName, validation } from './schedule-ops.js';
import { DEFAULT_GROUP, groupArn, notFound, type GroupRecord, type SchedulerStore } from './store.js';

export function tagsFrom(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!Array.isArray(value)) throw validation('Tags must be a list of Key and Value.');
  return Object.fromEntries(
    (value as Array<{ Key: string; Value: string }>).map((t) => [t.Key, String(t.Value)]),
  );
}

const tagList = (tags: Record<string, string>) =>
  Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

export function describeGroup(group: GroupRecord) {
  return {
    Arn: groupArn(group),
    Name: group.name,
    State: 'ACTIVE',
    CreationDate: group.createdAt / 1000,
    LastModificationDate: group.modifiedAt / 1000,
  };
}

/** Creates a group in the store (the API and Cloud Control alike). */
export async function createGroup(
  store: SchedulerStore,
  scope: { accountId: string; region: string },
  name: string,
  tags: Record<string, string>,
  now: number,
): Promise<GroupRecord> {
  checkName(name, 'schedule group');
  if (store.group(scope.accountId, scope.region, name)) {
    throw new SandboxError('ConflictException', `Schedule group ${name} already exists.`, 409);
  }
  const group = { ...scope, name, createdAt: now, modifiedAt: now, tags };
  await store.saveGroup(group);
  return group;
}

/** Deletes a group and every schedule in it, as Scheduler does. */
export async function deleteGroup(
  store: SchedulerStore,
  runner: ScheduleRunner,
  group: GroupRecord,
): Promise<void> {
  if (group.name === DEFAULT_GROUP) throw validation('The default schedule group cannot be deleted.');
  for (const schedule of store.schedulesIn(group.accountId, group.region)) {
    if (schedule.groupName !== group.name) continue;
    runner.disarm(schedule);
    await store.deleteSchedule(schedule);
  }
  await store.deleteGroup(group);
}

/** Schedule groups and their tags (only groups take tags in Scheduler). */
export function groupOps(store: SchedulerStore, runner: ScheduleRunner, now: () => number) {
  const existing = (call: ApiCall, name = call.labels.Name!): GroupRecord => {
    const group = store.group(call.accountId, call.region, name);
    if (!group) throw notFound(`Schedule group ${name} does not exist.`);
    return group;
  };
  /** The group a tagging call's ARN names. */
  const tagged = (call: ApiCall): GroupRecord => {
    const arn = call.labels.ResourceArn!;
    const match = /^arn:aws:scheduler:[^:]+:\d{12}:schedule-group\/(.+)$/.exec(arn);
    if (!match) throw notFound(`Resource ${arn} does not exist.`);
    return existing(call, match[1]);
  };
  return {
    async CreateScheduleGroup(call: ApiCall) {
      const group = await createGroup(
        store,
        { accountId: call.accountId, region: call.region },
        call.labels.Name!,
        tagsFrom(call.input.Tags),
        now(),
      );
      return { ScheduleGroupArn: groupArn(group) };
    },
    GetScheduleGroup(call: ApiCall) {
      return describeGroup(existing(call));
    },
    async DeleteScheduleGroup(call: ApiCall) {
      await deleteGroup(store, runner, existing(call));
      return {};
    },
    ListScheduleGroups(call: ApiCall) {
      const prefix = call.request.query.get('NamePrefix') ?? '';
      return {
        ScheduleGroups: store
          .groupsIn(call.accountId, call.region)
          .filter((group) => group.name.startsWith(prefix))
          .map(describeGroup),
      };
    },
    async TagResource(call: ApiCall) {
      const group = tagged(call);
      await store.saveGroup({ ...group, tags: { ...group.tags, ...tagsFrom(call.input.Tags) } });
      return {};
    },
    async UntagResource(call: ApiCall) {
      const group = tagged(call);
      const keys = call.request.query.getAll('TagKeys');
      const tags = Object.fromEntries(Object.entries(group.tags).filter(([key]) => !keys.includes(key)));
      await store.saveGroup({ ...group, tags });
      return {};
    },
    ListTagsForResource(call: ApiCall) {
      return { Tags: tagList(tagged(call).tags) };
    },
  };
}

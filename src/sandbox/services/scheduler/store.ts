import { SandboxError } from '../../errors.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { Storage } from '../../storage/storage.js';

export interface SchedulerTarget {
  Arn: string;
  RoleArn: string;
  Input?: string;
  RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
  DeadLetterConfig?: { Arn?: string };
  SqsParameters?: { MessageGroupId?: string };
  EventBridgeParameters?: { DetailType: string; Source: string };
  [other: string]: unknown;
}

export interface ScheduleRecord {
  accountId: string;
  region: string;
  groupName: string;
  name: string;
  scheduleExpression: string;
  timezone?: string;
  /** Epoch ms. */
  startDate?: number;
  endDate?: number;
  state: 'ENABLED' | 'DISABLED';
  description?: string;
  flexibleTimeWindow: { Mode: 'OFF' | 'FLEXIBLE'; MaximumWindowInMinutes?: number };
  target: SchedulerTarget;
  actionAfterCompletion: 'NONE' | 'DELETE';
  kmsKeyArn?: string;
  /** Epoch ms. */
  createdAt: number;
  modifiedAt: number;
}

export interface GroupRecord {
  accountId: string;
  region: string;
  name: string;
  createdAt: number;
  modifiedAt: number;
  tags: Record<string, string>;
}

export const scheduleArn = (s: {
  accountId: string;
  region: string;
  groupName: string;
  name: string;
}): string => `arn:aws:scheduler:${s.region}:${s.accountId}:schedule/${s.groupName}/${s.name}`;
export const groupArn = (g: { accountId: string; region: string; name: string }): string =>
  `arn:aws:scheduler:${g.region}:${g.accountId}:schedule-group/${g.name}`;

export const DEFAULT_GROUP = 'default';

export const notFound = (message: string) => new SandboxError('ResourceNotFoundException', message, 404);

const scheduleKey = (s: { accountId: string; region: string; groupName: string; name: string }) =>
  encodeURIComponent(`${s.accountId}/${s.region}/${s.groupName}/${s.name}`);
const groupKey = (g: { accountId: string; region: string; name: string }) =>
  encodeURIComponent(`${g.accountId}/${g.region}/${g.name}`);

/** Schedules and schedule groups, written through to storage. Every account and region has the `default` group. */
export class SchedulerStore {
  private constructor(
    private readonly schedules: DocumentMap<ScheduleRecord>,
    private readonly groups: DocumentMap<GroupRecord>,
  ) {}

  static async load(storage: Storage): Promise<SchedulerStore> {
    return new SchedulerStore(
      await DocumentMap.load<ScheduleRecord>(storage, 'scheduler/schedules'),
      await DocumentMap.load<GroupRecord>(storage, 'scheduler/groups'),
    );
  }

  schedule(accountId: string, region: string, groupName: string, name: string): ScheduleRecord | undefined {
    return this.schedules.get(scheduleKey({ accountId, region, groupName, name }));
  }

  allSchedules(): ScheduleRecord[] {
    return this.schedules.values();
  }

  schedulesIn(accountId: string, region: string): ScheduleRecord[] {
    return this.schedules
      .values()
      .filter((s) => s.accountId === accountId && s.region === region)
      .sort((a, b) => `${a.groupName}/${a.name}`.localeCompare(`${b.groupName}/${b.name}`));
  }

  saveSchedule(schedule: ScheduleRecord): Promise<void> {
    return this.schedules.put(scheduleKey(schedule), schedule);
  }

  deleteSchedule(schedule: ScheduleRecord): Promise<void> {
    return this.schedules.delete(scheduleKey(schedule));
  }

  /** The group, the `default` one made on first sight (it exists in every account and region). */
  group(accountId: string, region: string, name: string): GroupRecord | undefined {
    const found = this.groups.get(groupKey({ accountId, region, name }));
    if (found || name !== DEFAULT_GROUP) return found;
    return { accountId, region, name, createdAt: 0, modifiedAt: 0, tags: {} };
  }

  groupsIn(accountId: string, region: string): GroupRecord[] {
    const stored = this.groups.values().filter((g) => g.accountId === accountId && g.region === region);
    const all = stored.some((g) => g.name === DEFAULT_GROUP)
      ? stored
      : [this.group(accountId, region, DEFAULT_GROUP)!, ...stored];
    return all.sort((a, b) => a.name.localeCompare(b.name));
  }

  allGroups(): GroupRecord[] {
    return this.groups.values();
  }

  saveGroup(group: GroupRecord): Promise<void> {
    return this.groups.put(groupKey(group), group);
  }

  deleteGroup(group: GroupRecord): Promise<void> {
    return this.groups.delete(groupKey(group));
  }
}

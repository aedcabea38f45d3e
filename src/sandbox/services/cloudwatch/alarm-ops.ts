import { randomString } from '../../ids.js';
import type { SandboxRequest } from '../../request.js';
import { mergeTags, readTags } from './alarm-tags.js';
import { validateMetricAlarm } from './alarm-validation.js';
import { validateCompositeAlarm } from './composite-validation.js';
import { cloudWatchErrors } from './cloudwatch-errors.js';
import { alarmArn, type AlarmRecord, type AlarmStore } from './store.js';

type Input = Record<string, unknown>;

/** Everything an alarm operation needs for one request. */
export interface CloudWatchCall {
  store: AlarmStore;
  request: SandboxRequest;
  input: Input;
  now: () => number;
}

const INITIAL_REASON = 'Unchecked: Initial alarm creation';

/**
 * Writes an alarm, as PutMetricAlarm and PutCompositeAlarm do: a new name makes it (with its tags), an
 * existing one has its whole configuration replaced and its tags left alone (AWS ignores
 * Tags on an update; they change through TagResource).
 */
export async function writeAlarm(
  store: AlarmStore,
  scope: { region: string; accountId: string },
  input: Input,
  now: number,
  composite = false,
): Promise<AlarmRecord> {
  const held = (name: string) => store.get(scope.accountId, scope.region, name) !== undefined;
  if (composite) validateCompositeAlarm(input, held);
  else validateMetricAlarm(input);
  const name = input.AlarmName as string;
  const tags = readTags(input.Tags);
  const config = Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => key !== 'AlarmName' && key !== 'Tags' && value !== undefined,
    ),
  );
  const existing = store.get(scope.accountId, scope.region, name);
  if (existing && (existing.composite ?? false) !== composite) {
    throw cloudWatchErrors.validation(
      `The alarm ${name} is a ${existing.composite ? 'composite' : 'metric'} alarm: it cannot be overwritten by a ${composite ? 'composite' : 'metric'} alarm`,
    );
  }
  const record: AlarmRecord = existing
    ? { ...existing, config, configUpdatedAt: now }
    : {
        name,
        region: scope.region,
        accountId: scope.accountId,
        ...(composite ? { composite: true as const } : {}),
        config,
        tags: mergeTags([], tags),
        configUpdatedAt: now,
        stateUpdatedAt: now,
      };
  await store.save(record);
  return record;
}

export async function putMetricAlarm(call: CloudWatchCall): Promise<unknown> {
  await writeAlarm(call.store, call.request, call.input, call.now());
  return {};
}

export async function putCompositeAlarm(call: CloudWatchCall): Promise<unknown> {
  await writeAlarm(call.store, call.request, call.input, call.now(), true);
  return {};
}

export async function describeAlarms(call: CloudWatchCall): Promise<unknown> {
  const { input } = call;
  const names = stringList(input.AlarmNames, 'AlarmNames', 100);
  if (names && input.AlarmNamePrefix !== undefined) {
    throw cloudWatchErrors.invalidParameterCombination(
      'AlarmNames and AlarmNamePrefix are mutually exclusive and you have specified both.',
    );
  }
  const maxRecords = input.MaxRecords === undefined ? 50 : Number(input.MaxRecords);
  if (!Number.isInteger(maxRecords) || maxRecords < 1 || maxRecords > 100) {
    throw cloudWatchErrors.validation(
      `1 validation error detected: Value '${String(input.MaxRecords)}' at 'maxRecords' failed to satisfy constraint: Member must have value between 1 and 100`,
    );
  }
  const types = stringList(input.AlarmTypes, 'AlarmTypes', 2) ?? ['MetricAlarm'];
  const prefix = typeof input.AlarmNamePrefix === 'string' ? input.AlarmNamePrefix : undefined;
  const action = typeof input.ActionPrefix === 'string' ? input.ActionPrefix : undefined;
  const matching = call.store
    .list(call.request.accountId, call.request.region)
    .filter((alarm) => !names || names.includes(alarm.name))
    .filter((alarm) => prefix === undefined || alarm.name.startsWith(prefix))
    // Nothing evaluates the sandbox's alarms: each stays in INSUFFICIENT_DATA.
    .filter(() => input.StateValue === undefined || input.StateValue === 'INSUFFICIENT_DATA')
    .filter((alarm) => action === undefined || actionsOf(alarm).some((arn) => arn.startsWith(action)));
  const typed = matching.filter((alarm) =>
    types.includes(alarm.composite ? 'CompositeAlarm' : 'MetricAlarm'),
  );
  const start = startAfter(input.NextToken, typed);
  const page = typed.slice(start, start + maxRecords);
  const next =
    start + page.length < typed.length && page.length > 0 ? page[page.length - 1]!.name : undefined;
  return {
    MetricAlarms: page.filter((alarm) => !alarm.composite).map(describe),
    ...(types.includes('CompositeAlarm')
      ? { CompositeAlarms: page.filter((alarm) => alarm.composite).map(describe) }
      : {}),
    ...(next !== undefined ? { NextToken: Buffer.from(next).toString('base64') } : {}),
  };
}

/** Deletes every named alarm, or none when one of them does not exist. */
export async function deleteAlarms(call: CloudWatchCall): Promise<unknown> {
  const names = stringList(call.input.AlarmNames, 'AlarmNames', 100);
  if (!names) throw cloudWatchErrors.missing('AlarmNames');
  const { region, accountId } = call.request;
  const found = names.map((name) => call.store.get(accountId, region, name));
  const missing = names.filter((_, index) => found[index] === undefined);
  if (missing.length > 0) throw cloudWatchErrors.alarmsNotFound(missing);
  for (const alarm of found) if (alarm) await call.store.delete(alarm);
  return {};
}

export async function tagResource(call: CloudWatchCall): Promise<unknown> {
  const alarm = taggable(call);
  if (call.input.Tags === undefined) throw cloudWatchErrors.missing('Tags');
  alarm.tags = mergeTags(alarm.tags, readTags(call.input.Tags));
  await call.store.save(alarm);
  return {};
}

export async function untagResource(call: CloudWatchCall): Promise<unknown> {
  const alarm = taggable(call);
  const keys = stringList(call.input.TagKeys, 'TagKeys', 50);
  if (!keys) throw cloudWatchErrors.missing('TagKeys');
  alarm.tags = alarm.tags.filter((tag) => !keys.includes(tag.Key));
  await call.store.save(alarm);
  return {};
}

export async function listTagsForResource(call: CloudWatchCall): Promise<unknown> {
  return { Tags: taggable(call).tags };
}

/** DescribeAlarms' MetricAlarm or CompositeAlarm: the configuration as set, AWS's defaults and the alarm's state. */
export function describe(alarm: AlarmRecord): Record<string, unknown> {
  const { config } = alarm;
  const single =
    !alarm.composite && !Array.isArray(config.Metrics) && config.EvaluationCriteria === undefined;
  return {
    AlarmName: alarm.name,
    AlarmArn: alarmArn(alarm),
    ActionsEnabled: true,
    OKActions: [],
    AlarmActions: [],
    InsufficientDataActions: [],
    ...(single ? { Dimensions: [] } : {}),
    ...config,
    AlarmConfigurationUpdatedTimestamp: alarm.configUpdatedAt / 1000,
    StateValue: 'INSUFFICIENT_DATA',
    StateReason: INITIAL_REASON,
    StateUpdatedTimestamp: alarm.stateUpdatedAt / 1000,
    StateTransitionedTimestamp: alarm.stateUpdatedAt / 1000,
  };
}

/** The alarm a tagging call's ResourceARN names, in the caller's region and account. */
function taggable(call: CloudWatchCall): AlarmRecord {
  const arn = call.input.ResourceARN;
  if (typeof arn !== 'string' || arn === '') throw cloudWatchErrors.missing('ResourceARN');
  const match = /^arn:aws[a-z-]*:cloudwatch:([^:]*):(\d{12}):alarm:(.+)$/.exec(arn);
  if (!match) {
    if (/^arn:aws[a-z-]*:cloudwatch:[^:]*:\d{12}:/.test(arn)) throw cloudWatchErrors.resourceNotFound(arn);
    throw cloudWatchErrors.invalidParameterValue(`Invalid ARN: ${arn}`);
  }
  const [, region, account, name] = match;
  // Another region's or account's alarm is not this caller's to tag.
  const alarm =
    region === call.request.region && account === call.request.accountId
      ? call.store.get(account, region, name!)
      : undefined;
  if (!alarm) throw cloudWatchErrors.resourceNotFound(arn);
  return alarm;
}

function actionsOf(alarm: AlarmRecord): string[] {
  return ['OKActions', 'AlarmActions', 'InsufficientDataActions'].flatMap((list) =>
    Array.isArray(alarm.config[list]) ? (alarm.config[list] as string[]) : [],
  );
}

/** Where a page starts: after the alarm the NextToken names. */
function startAfter(token: unknown, alarms: readonly AlarmRecord[]): number {
  if (token === undefined) return 0;
  const after = typeof token === 'string' ? Buffer.from(token, 'base64').toString('utf8') : '';
  const index = alarms.findIndex((alarm) => alarm.name === after);
  if (index < 0) throw cloudWatchErrors.invalidNextToken();
  return index + 1;
}

function stringList(value: unknown, member: string, limit: number): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw cloudWatchErrors.validation(`${member} must be a list of strings`);
  }
  if (value.length > limit) {
    throw cloudWatchErrors.validation(
      `1 validation error detected: Value at '${member.charAt(0).toLowerCase()}${member.slice(1)}' failed to satisfy constraint: Member must have length less than or equal to ${limit}`,
    );
  }
  return value as string[];
}

/** A CloudFormation-style generated alarm name, for an alarm Cloud Control makes unnamed. */
export function generatedAlarmName(): string {
  return `Alarm-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
}

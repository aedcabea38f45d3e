import { optionalString, requiredString } from '../../protocols/json.js';
import { logsErrors } from './logs-errors.js';
import type { LogEventStore } from './event-store.js';
import { logGroupArn, taggingArn, type LogGroupRecord, type LogGroupStore } from './store.js';

type Input = Record<string, unknown>;

export interface LogsCall {
  store: LogGroupStore;
  events: LogEventStore;
  accountId: string;
  region: string;
  input: Input;
}

/** The only retention periods CloudWatch Logs accepts. */
export const ALLOWED_RETENTION_DAYS: readonly number[] = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
];

export const LOG_GROUP_NAME_PATTERN = /^[.\-_/#A-Za-z0-9]{1,512}$/;

/** The named log group, or the ResourceNotFoundException AWS answers with. */
export function requireGroup({ store, region, input }: LogsCall, member = 'logGroupName'): LogGroupRecord {
  const group = store.get(region, requiredString(input, member, 'InvalidParameterException'));
  if (!group) throw logsErrors.groupNotFound();
  return group;
}

export async function createLogGroup({ store, region, input }: LogsCall): Promise<unknown> {
  const name = requiredString(input, 'logGroupName', 'InvalidParameterException');
  if (!LOG_GROUP_NAME_PATTERN.test(name)) {
    throw logsErrors.invalidParameter(
      `1 validation error detected: Value '${name}' at 'logGroupName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\.\\-_/#A-Za-z0-9]+`,
    );
  }
  if (store.get(region, name)) throw logsErrors.groupExists();
  const kmsKeyId = optionalString(input, 'kmsKeyId');
  await store.save({
    name,
    region,
    creationTime: Date.now(),
    ...(kmsKeyId !== undefined ? { kmsKeyId } : {}),
    logGroupClass: optionalString(input, 'logGroupClass') ?? 'STANDARD',
    tags: (input.tags as Record<string, string> | undefined) ?? {},
    streams: [],
    metricFilters: [],
    subscriptionFilters: [],
  });
  return {};
}

export async function deleteLogGroup(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  await call.store.delete(group);
  await call.events.deleteGroup(group.region, group.name);
  return {};
}

export async function describeLogGroups({ store, region, accountId, input }: LogsCall): Promise<unknown> {
  const prefix = optionalString(input, 'logGroupNamePrefix') ?? '';
  const matching = store.list(region).filter((group) => group.name.startsWith(prefix));
  const { items, nextToken } = page(matching, input, 50);
  return {
    logGroups: items.map((group) => ({
      logGroupName: group.name,
      creationTime: group.creationTime,
      metricFilterCount: group.metricFilters.length,
      arn: logGroupArn(group, accountId),
      logGroupArn: taggingArn(group, accountId),
      storedBytes: 0,
      logGroupClass: group.logGroupClass,
      ...(group.retentionInDays !== undefined ? { retentionInDays: group.retentionInDays } : {}),
      ...(group.kmsKeyId !== undefined ? { kmsKeyId: group.kmsKeyId } : {}),
      ...(group.dataProtectionPolicy !== undefined ? { dataProtectionStatus: 'ACTIVATED' } : {}),
    })),
    ...(nextToken !== undefined ? { nextToken } : {}),
  };
}

export async function putRetentionPolicy(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const days = call.input.retentionInDays;
  if (typeof days !== 'number' || !ALLOWED_RETENTION_DAYS.includes(days)) {
    throw logsErrors.invalidParameter(
      `1 validation error detected: Value '${String(days)}' at 'retentionInDays' failed to satisfy constraint: Member must satisfy enum value set: [${ALLOWED_RETENTION_DAYS.join(', ')}]`,
    );
  }
  await call.store.save({ ...group, retentionInDays: days });
  return {};
}

export async function deleteRetentionPolicy(call: LogsCall): Promise<unknown> {
  const group = { ...requireGroup(call) };
  delete group.retentionInDays;
  await call.store.save(group);
  return {};
}

export async function associateKmsKey(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const kmsKeyId = requiredString(call.input, 'kmsKeyId', 'InvalidParameterException');
  await call.store.save({ ...group, kmsKeyId });
  return {};
}

export async function disassociateKmsKey(call: LogsCall): Promise<unknown> {
  const group = { ...requireGroup(call) };
  delete group.kmsKeyId;
  await call.store.save(group);
  return {};
}

/** The group a tagging ARN names (with or without the trailing `:*`). */
function groupByArn(call: LogsCall): LogGroupRecord {
  const arn = requiredString(call.input, 'resourceArn', 'InvalidParameterException');
  const match = /^arn:aws:logs:([^:]+):(\d{12}):log-group:(.+?)(:\*)?$/.exec(arn);
  const group = match && call.store.get(match[1]!, match[3]!);
  if (!group) throw logsErrors.groupNotFound();
  return group;
}

export async function tagResource(call: LogsCall): Promise<unknown> {
  const group = groupByArn(call);
  const tags = { ...group.tags, ...(call.input.tags as Record<string, string> | undefined) };
  if (Object.keys(tags).length > 50) throw logsErrors.limitExceeded('A log group can have at most 50 tags.');
  await call.store.save({ ...group, tags });
  return {};
}

export async function untagResource(call: LogsCall): Promise<unknown> {
  const group = groupByArn(call);
  const removed = new Set((call.input.tagKeys as string[] | undefined) ?? []);
  const tags = Object.fromEntries(Object.entries(group.tags).filter(([tagKey]) => !removed.has(tagKey)));
  await call.store.save({ ...group, tags });
  return {};
}

export async function listTagsForResource(call: LogsCall): Promise<unknown> {
  return { tags: groupByArn(call).tags };
}

export async function putDataProtectionPolicy(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call, 'logGroupIdentifier');
  const policyDocument = requiredString(call.input, 'policyDocument', 'InvalidParameterException');
  await call.store.save({ ...group, dataProtectionPolicy: policyDocument });
  return { logGroupIdentifier: group.name, policyDocument, lastUpdatedTime: Date.now() };
}

export async function getDataProtectionPolicy(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call, 'logGroupIdentifier');
  return {
    logGroupIdentifier: group.name,
    ...(group.dataProtectionPolicy !== undefined ? { policyDocument: group.dataProtectionPolicy } : {}),
  };
}

export async function deleteDataProtectionPolicy(call: LogsCall): Promise<unknown> {
  const group = { ...requireGroup(call, 'logGroupIdentifier') };
  delete group.dataProtectionPolicy;
  await call.store.save(group);
  return {};
}

export async function createLogStream(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const name = requiredString(call.input, 'logStreamName', 'InvalidParameterException');
  if (group.streams.some((stream) => stream.name === name)) throw logsErrors.streamExists();
  await call.store.save({ ...group, streams: [...group.streams, { name, creationTime: Date.now() }] });
  return {};
}

export async function describeLogStreams(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const prefix = optionalString(call.input, 'logStreamNamePrefix') ?? '';
  const { items, nextToken } = page(
    group.streams.filter((stream) => stream.name.startsWith(prefix)),
    call.input,
    50,
  );
  return {
    logStreams: items.map((stream) => ({
      logStreamName: stream.name,
      creationTime: stream.creationTime,
      arn: `${taggingArn(group, call.accountId)}:log-stream:${stream.name}`,
      storedBytes: 0,
    })),
    ...(nextToken !== undefined ? { nextToken } : {}),
  };
}

/** One page by `limit` / `nextToken` (an opaque offset). */
export function page<T>(items: T[], input: Input, defaultLimit: number): { items: T[]; nextToken?: string } {
  const limit = typeof input.limit === 'number' ? input.limit : defaultLimit;
  const start =
    typeof input.nextToken === 'string' ? Number(Buffer.from(input.nextToken, 'base64url').toString()) : 0;
  const slice = items.slice(start, start + limit);
  const end = start + slice.length;
  return end < items.length
    ? { items: slice, nextToken: Buffer.from(String(end)).toString('base64url') }
    : { items: slice };
}

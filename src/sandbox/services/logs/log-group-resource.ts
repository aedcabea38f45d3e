import { randomString } from '../../ids.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import type { LogEventStore } from './event-store.js';
import { ALLOWED_RETENTION_DAYS, LOG_GROUP_NAME_PATTERN } from './group-ops.js';
import { logGroupArn, type LogGroupRecord, type LogGroupStore } from './store.js';

const TYPE = 'AWS::Logs::LogGroup';
/** The properties the Logs store models; any other is kept as given. */
const MODELLED = new Set([
  'LogGroupName',
  'RetentionInDays',
  'KmsKeyId',
  'LogGroupClass',
  'DataProtectionPolicy',
  'Tags',
]);

/**
 * AWS::Logs::LogGroup for Cloud Control, on the Logs module's own store: a group Cloud Control
 * made is the one a function's LoggingConfig writes to, DescribeLogGroups lists and Cloud
 * Control's delete removes, events and all.
 */
export function logGroupResourceHandler(store: LogGroupStore, events: LogEventStore): ResourceHandler {
  const props = new Set(sandboxSchemaFor(TYPE)!.props);
  const model = (group: LogGroupRecord, accountId: string): ResourceModel => ({
    ...group.otherProperties,
    LogGroupName: group.name,
    Arn: logGroupArn(group, accountId),
    LogGroupClass: group.logGroupClass,
    ...(group.retentionInDays !== undefined && { RetentionInDays: group.retentionInDays }),
    ...(group.kmsKeyId !== undefined && { KmsKeyId: group.kmsKeyId }),
    ...(group.dataProtectionPolicy !== undefined && {
      DataProtectionPolicy: JSON.parse(group.dataProtectionPolicy) as unknown,
    }),
    ...(Object.keys(group.tags).length > 0 && {
      Tags: Object.entries(group.tags).map(([Key, Value]) => ({ Key, Value })),
    }),
  });
  /** The group as the desired state sets it, over `base` (its streams, filters and creation time). */
  const written = (base: LogGroupRecord, desired: ResourceModel): LogGroupRecord => {
    const extraneous = Object.keys(desired).find((key) => !props.has(key));
    if (extraneous) {
      throw new HandlerError(
        'InvalidRequest',
        `Model validation failed (#: extraneous key [${extraneous}] is not permitted)`,
      );
    }
    const retention = desired.RetentionInDays === undefined ? undefined : Number(desired.RetentionInDays);
    if (retention !== undefined && !ALLOWED_RETENTION_DAYS.includes(retention)) {
      throw new HandlerError(
        'InvalidRequest',
        `Model validation failed (#/RetentionInDays: ${String(desired.RetentionInDays)} is not a valid enum value)`,
      );
    }
    const tags = Array.isArray(desired.Tags) ? (desired.Tags as Array<{ Key: string; Value: string }>) : [];
    const other = Object.fromEntries(Object.entries(desired).filter(([key]) => !MODELLED.has(key)));
    return {
      name: base.name,
      region: base.region,
      creationTime: base.creationTime,
      logGroupClass: typeof desired.LogGroupClass === 'string' ? desired.LogGroupClass : 'STANDARD',
      tags: Object.fromEntries(tags.map((tag) => [tag.Key, tag.Value])),
      streams: base.streams,
      metricFilters: base.metricFilters,
      subscriptionFilters: base.subscriptionFilters,
      ...(retention !== undefined && { retentionInDays: retention }),
      ...(typeof desired.KmsKeyId === 'string' && { kmsKeyId: desired.KmsKeyId }),
      ...(desired.DataProtectionPolicy !== undefined && {
        dataProtectionPolicy: JSON.stringify(desired.DataProtectionPolicy),
      }),
      ...(Object.keys(other).length > 0 && { otherProperties: other }),
    };
  };
  const notFound = (name: string) => new HandlerError('NotFound', `Log group ${name} does not exist.`);
  return {
    async create(desired, region, accountId) {
      const name =
        typeof desired.LogGroupName === 'string'
          ? desired.LogGroupName
          : `LogGroup-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
      if (!LOG_GROUP_NAME_PATTERN.test(name)) {
        throw new HandlerError(
          'InvalidRequest',
          `Model validation failed (#/LogGroupName: string [${name}] does not match pattern)`,
        );
      }
      if (store.get(region, name))
        throw new HandlerError(
          'AlreadyExists',
          `Resource of type '${TYPE}' with identifier '${name}' already exists.`,
        );
      const empty = {
        name,
        region,
        creationTime: Date.now(),
        streams: [],
        metricFilters: [],
        subscriptionFilters: [],
      };
      const group = written({ ...empty, logGroupClass: 'STANDARD', tags: {} }, desired);
      await store.save(group);
      return { identifier: name, model: model(group, accountId) };
    },
    read(identifier, region, accountId) {
      const group = store.get(region, identifier);
      return group ? model(group, accountId) : undefined;
    },
    async update(identifier, desired, region, accountId) {
      const group = store.get(region, identifier);
      if (!group) throw notFound(identifier);
      if (desired.LogGroupName !== undefined && desired.LogGroupName !== identifier) {
        throw new HandlerError(
          'NotUpdatable',
          'Invalid patch update: createOnlyProperties [/properties/LogGroupName] cannot be updated',
        );
      }
      const updated = written(group, desired);
      await store.save(updated);
      return model(updated, accountId);
    },
    async delete(identifier, region) {
      const group = store.get(region, identifier);
      if (!group) throw notFound(identifier);
      await store.delete(group);
      await events.deleteGroup(region, identifier);
    },
    list(region, accountId) {
      return store.list(region).map((group) => ({ identifier: group.name, model: model(group, accountId) }));
    },
  };
}

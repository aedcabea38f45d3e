import { SandboxError } from '../../errors.js';
import { randomString } from '../../ids.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { DEFAULT_RETENTION_HOURS, type KinesisStore, type StreamDocument } from './store.js';
import { integerIn, streamSettings } from './stream-ops.js';

export const STREAM = 'AWS::Kinesis::Stream';

const asHandlerError = (error: unknown): unknown =>
  error instanceof SandboxError ? new HandlerError('InvalidRequest', error.message) : error;

function tagsOf(desired: ResourceModel): Record<string, string> {
  const tags = Array.isArray(desired.Tags) ? (desired.Tags as Array<{ Key: string; Value: string }>) : [];
  return Object.fromEntries(tags.map((tag) => [tag.Key, String(tag.Value)]));
}

function retentionOf(desired: ResourceModel): number {
  return desired.RetentionPeriodHours === undefined
    ? DEFAULT_RETENTION_HOURS
    : integerIn(desired.RetentionPeriodHours, 'RetentionPeriodHours', 24, 8760);
}

/** The template's settings as CreateStream's; a provisioned stream without ShardCount has one shard. */
function settingsOf(name: string, desired: ResourceModel) {
  return streamSettings({ ...desired, StreamName: name, ShardCount: desired.ShardCount ?? 1 });
}

const KEPT = ['DesiredShardLevelMetrics', 'MaxRecordSizeInKiB', 'WarmThroughputMiBps'];

/** StreamEncryption as the template gives it (EncryptionType NONE is no encryption). */
function encryptionOf(desired: ResourceModel): StreamDocument['encryption'] {
  const given = desired.StreamEncryption as { EncryptionType?: string; KeyId?: string } | undefined;
  if (!given || given.EncryptionType === 'NONE') return undefined;
  if (given.EncryptionType !== 'KMS' || typeof given.KeyId !== 'string') {
    throw new HandlerError('InvalidRequest', 'StreamEncryption needs EncryptionType KMS and a KeyId.');
  }
  return { EncryptionType: 'KMS', KeyId: given.KeyId };
}

/** The settings a stream keeps from its template: encryption and the ones read back as set. */
function keptSettings(desired: ResourceModel): Pick<StreamDocument, 'encryption' | 'kept'> {
  const encryption = encryptionOf(desired);
  const kept = Object.fromEntries(
    KEPT.filter((key) => desired[key] !== undefined).map((key) => [key, desired[key]]),
  );
  return { ...(encryption ? { encryption } : {}), ...(Object.keys(kept).length > 0 ? { kept } : {}) };
}

function model(stream: StreamDocument): ResourceModel {
  const tags = Object.entries(stream.tags).map(([Key, Value]) => ({ Key, Value }));
  return {
    ...stream.kept,
    ...(stream.encryption ? { StreamEncryption: stream.encryption } : {}),
    Name: stream.name,
    Arn: stream.arn,
    StreamModeDetails: { StreamMode: stream.mode },
    ...(stream.mode === 'PROVISIONED' ? { ShardCount: stream.shards.length } : {}),
    RetentionPeriodHours: stream.retentionHours,
    ...(tags.length > 0 ? { Tags: tags } : {}),
  };
}

/**
 * AWS::Kinesis::Stream for Cloud Control on the Kinesis module's store, identified by Name
 * (generated CloudFormation-style when absent). Retention and tags update in place; a
 * different shard count or mode would reshard, which the sandbox does not do.
 */
export function streamResourceHandler(store: KinesisStore): ResourceHandler {
  const find = (name: string, region: string, accountId: string): StreamDocument => {
    const stream = store.get(accountId, region, name);
    if (!stream) throw new HandlerError('NotFound', `Stream ${name} under account ${accountId} not found.`);
    return stream;
  };
  return {
    async create(desired, region, accountId) {
      const name =
        typeof desired.Name === 'string'
          ? desired.Name
          : `Stream-${randomString(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
      if (store.get(accountId, region, name))
        throw new HandlerError('AlreadyExists', `${name} already exists`);
      try {
        const settings = settingsOf(name, desired);
        const kept = keptSettings(desired);
        const stream = await store.create({ accountId, region }, name, {
          ...settings,
          retentionHours: retentionOf(desired),
          tags: tagsOf(desired),
          ...kept,
        });
        return { identifier: name, model: model(stream) };
      } catch (error) {
        throw asHandlerError(error);
      }
    },
    read(identifier, region, accountId) {
      const stream = store.get(accountId, region, identifier);
      return stream ? model(stream) : undefined;
    },
    async update(identifier, desired, region, accountId) {
      const stream = find(identifier, region, accountId);
      try {
        const settings = settingsOf(identifier, desired);
        if (settings.mode !== stream.mode || settings.shardCount !== stream.shards.length) {
          throw new HandlerError(
            'InvalidRequest',
            `Stream ${identifier}: changing the stream mode or shard count (resharding) is not supported by the sandbox.`,
          );
        }
        // Everything is read and checked before the stream changes, so a refused update changes nothing.
        const next = {
          retentionHours: retentionOf(desired),
          tags: tagsOf(desired),
          ...keptSettings(desired),
        };
        delete stream.encryption;
        delete stream.kept;
        Object.assign(stream, next);
      } catch (error) {
        throw asHandlerError(error);
      }
      await store.save(stream);
      return model(stream);
    },
    async delete(identifier, region, accountId) {
      await store.delete(find(identifier, region, accountId));
    },
    list(region, accountId) {
      return store
        .list(accountId, region)
        .map((stream) => ({ identifier: stream.name, model: model(stream) }));
    },
  };
}

import { randomString } from '../../ids.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { parameterNameProblem } from './parameter-name.js';
import { writeParameter } from './parameter-ops.js';
import {
  current,
  parameterArn,
  type ParameterRecord,
  type ParameterStore,
  type ParameterType,
} from './store.js';

/** AWS::SSM::Parameter for Cloud Control, on the SSM module's own store. */
export function parameterResourceHandler(store: ParameterStore): ResourceHandler {
  const model = (record: ParameterRecord, accountId: string): ResourceModel => {
    const latest = current(record);
    return {
      Name: record.name,
      Type: record.type,
      Value: latest.value,
      DataType: record.dataType,
      Tier: record.tier,
      Arn: parameterArn(record, accountId),
      ...(latest.description !== undefined ? { Description: latest.description } : {}),
      ...(record.tags.length > 0
        ? { Tags: Object.fromEntries(record.tags.map((t) => [t.Key, t.Value])) }
        : {}),
    };
  };
  const write = async (
    name: string,
    desired: ResourceModel,
    region: string,
    accountId: string,
  ): Promise<ResourceModel> => {
    const type = desired.Type as ParameterType;
    // CloudFormation cannot create SecureString parameters.
    if (type !== 'String' && type !== 'StringList') {
      throw new HandlerError(
        'InvalidRequest',
        `Model validation failed (#/Type: ${String(type)} is not a valid enum value)`,
      );
    }
    const tags = desired.Tags as Record<string, string> | undefined;
    const record = writeParameter(store, region, name, String(desired.Value), {
      type,
      description: desired.Description as string | undefined,
      dataType: desired.DataType as string | undefined,
      tier: desired.Tier as string | undefined,
      tags: Object.entries(tags ?? {}).map(([Key, Value]) => ({ Key, Value })),
    });
    await store.save(record);
    return model(record, accountId);
  };
  return {
    // Taken and not kept, as AWS's own handler lists them write-only.
    writeOnlyProperties: ['AllowedPattern', 'Policies'],
    async create(desired, region, accountId) {
      const name = typeof desired.Name === 'string' ? desired.Name : `CFN-Parameter-${randomString(12)}`;
      const invalidName = parameterNameProblem(name);
      if (invalidName) throw new HandlerError('InvalidRequest', invalidName);
      if (store.get(region, name)) throw new HandlerError('AlreadyExists', `${name} already exists`);
      return { identifier: name, model: await write(name, desired, region, accountId) };
    },
    read(identifier, region, accountId) {
      const record = store.get(region, identifier);
      return record ? model(record, accountId) : undefined;
    },
    async update(identifier, desired, region, accountId) {
      if (!store.get(region, identifier)) throw notFound(identifier);
      return write(identifier, desired, region, accountId);
    },
    async delete(identifier, region) {
      const record = store.get(region, identifier);
      if (!record) throw notFound(identifier);
      await store.delete(record);
    },
    list(region, accountId) {
      return store
        .list(region)
        .map((record) => ({ identifier: record.name, model: model(record, accountId) }));
    },
  };
}

function notFound(name: string): HandlerError {
  return new HandlerError('NotFound', `Parameter ${name} not found.`);
}

import { SandboxError } from '../../errors.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import { describe, generatedAlarmName, writeAlarm } from './alarm-ops.js';
import { mergeTags, readTags } from './alarm-tags.js';
import { alarmArn, type AlarmRecord, type AlarmStore } from './store.js';

export const ALARM = 'AWS::CloudWatch::Alarm';
export const COMPOSITE_ALARM = 'AWS::CloudWatch::CompositeAlarm';

/** Template properties CloudFormation types as numbers or booleans; a resolved parameter may arrive as a string. */
const NUMBERS = [
  'Threshold',
  'Period',
  'EvaluationPeriods',
  'DatapointsToAlarm',
  'EvaluationInterval',
  'ActionsSuppressorWaitPeriod',
  'ActionsSuppressorExtensionPeriod',
];
const BOOLEANS = ['ActionsEnabled'];

/**
 * AWS::CloudWatch::Alarm or AWS::CloudWatch::CompositeAlarm for Cloud Control, on the
 * CloudWatch module's own store: an alarm PutMetricAlarm made is the one Cloud Control reads
 * and updates by its AlarmName. The template's property names are the Put call's members,
 * so the model is the alarm's configuration with its Arn and tags.
 */
export function alarmResourceHandler(
  store: AlarmStore,
  now: () => number,
  type: typeof ALARM | typeof COMPOSITE_ALARM,
): ResourceHandler {
  const props = new Set(sandboxSchemaFor(type)!.props);
  const composite = type === COMPOSITE_ALARM;
  /** The alarm of this handler's kind holding `name` in the account; another kind is not found. */
  const find = (region: string, name: string, accountId: string): AlarmRecord | undefined => {
    const alarm = store.get(accountId, region, name);
    return alarm && (alarm.composite ?? false) === composite ? alarm : undefined;
  };
  // DescribeAlarms' empty default Dimensions is no template value: only the alarm's own are modelled.
  const model = (alarm: AlarmRecord): ResourceModel => {
    const described = describe(alarm);
    return {
      ...Object.fromEntries(
        Object.entries(described).filter(([key]) => props.has(key) && key !== 'Dimensions'),
      ),
      ...(Array.isArray(alarm.config.Dimensions) ? { Dimensions: alarm.config.Dimensions } : {}),
      Arn: alarmArn(alarm),
      ...(alarm.tags.length > 0 ? { Tags: alarm.tags } : {}),
    };
  };
  // Cloud Control's update sends the whole desired state, tags too: they are set to exactly it.
  const write = async (
    name: string,
    desired: ResourceModel,
    scope: { region: string; accountId: string },
    replaceTags: boolean,
  ): Promise<AlarmRecord> => {
    const extraneous = Object.keys(desired).find((key) => !props.has(key));
    if (extraneous) {
      throw new HandlerError(
        'InvalidRequest',
        `Model validation failed (#: extraneous key [${extraneous}] is not permitted)`,
      );
    }
    const input = coerce({ ...desired, AlarmName: name });
    try {
      // Checked before the write, so a refused tag list changes nothing.
      const tags = replaceTags ? mergeTags([], readTags(input.Tags)) : undefined;
      const alarm = await writeAlarm(store, scope, input, now(), composite);
      if (!tags) return alarm;
      const tagged = { ...alarm, tags };
      await store.save(tagged);
      return tagged;
    } catch (error) {
      if (error instanceof SandboxError) throw new HandlerError('InvalidRequest', error.message);
      throw error;
    }
  };
  return {
    async create(desired, region, accountId) {
      const name = typeof desired.AlarmName === 'string' ? desired.AlarmName : generatedAlarmName();
      if (store.get(accountId, region, name))
        throw new HandlerError('AlreadyExists', `${name} already exists`);
      const alarm = await write(name, desired, { region, accountId }, false);
      return { identifier: name, model: model(alarm) };
    },
    read(identifier, region, accountId) {
      const alarm = find(region, identifier, accountId);
      return alarm ? model(alarm) : undefined;
    },
    async update(identifier, desired, region, accountId) {
      if (!find(region, identifier, accountId)) throw notFound(identifier);
      return model(await write(identifier, desired, { region, accountId }, true));
    },
    async delete(identifier, region, accountId) {
      const alarm = find(region, identifier, accountId);
      if (!alarm) throw notFound(identifier);
      await store.delete(alarm);
    },
    list(region, accountId) {
      return store
        .list(accountId, region)
        .filter((alarm) => (alarm.composite ?? false) === composite)
        .map((alarm) => ({ identifier: alarm.name, model: model(alarm) }));
    },
  };
}

function coerce(desired: ResourceModel): ResourceModel {
  const input = { ...desired };
  for (const key of NUMBERS) {
    if (typeof input[key] === 'string' && input[key] !== '') input[key] = Number(input[key]);
  }
  for (const key of BOOLEANS) {
    if (input[key] === 'true' || input[key] === 'false') input[key] = input[key] === 'true';
  }
  return input;
}

function notFound(name: string): HandlerError {
  return new HandlerError('NotFound', `Alarm ${name} not found.`);
}

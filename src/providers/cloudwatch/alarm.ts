import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  ListTagsForResourceCommand,
  PutMetricAlarmCommand,
  TagResourceCommand,
  UntagResourceCommand,
  type MetricAlarm,
} from '@aws-sdk/client-cloudwatch';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';

import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { givenOrTokenName, nameFromToken } from '../physical-names.js';
import { tagDiff, tagList, tagMap } from '../tags.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  LocateAnswer,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { ALARM_PROPERTIES, alarmProperties, putMetricAlarmInput } from './alarm-input.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const ALARM_TYPE = 'AWS::CloudWatch::Alarm';

/** CloudWatch takes any printable name up to 255; a generated one keeps to CloudFormation's letters, digits, `-` and `_`. */
const ALARM_NAME_RULES = { maxLength: 255, extraCharacters: '-_' };

/**
 * AWS::CloudWatch::Alarm (a metric alarm) through PutMetricAlarm, which makes the alarm or
 * overwrites the whole configuration of the one holding the name. Physical id and Ref: the
 * alarm name, which is also Cloud Control's identifier for the type.
 */
export class AlarmProvider extends SdkProvider {
  /** AlarmName is create-only; PutMetricAlarm changes everything else in place. */
  readonly description: ProviderDescription = { type: ALARM_TYPE, covered: ALARM_PROPERTIES };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const name = alarmName(request, context);
    const tags = tagList(tagMap(request.properties.Tags));
    // A retry under the same token puts the same configuration on the alarm the first attempt made.
    await (
      await cloudWatch(context)
    ).send(
      new PutMetricAlarmCommand({
        ...putMetricAlarmInput(name, request.properties),
        ...(tags.length > 0 ? { Tags: tags } : {}),
      }),
      { abortSignal: context.signal },
    );
    const arn = alarmArn(name, context);
    return { physicalId: name, attributes: { Arn: arn }, creationIdentity: { AlarmArn: arn } };
  }

  /** The alarm a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.AlarmName, request)) return 'unknown';
    const name = alarmName(request, context);
    return (await describe(await cloudWatch(context), name)) ? { physicalId: name } : 'none';
  }

  /** PutMetricAlarm overwrites an alarm already holding an explicit name: look it up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    const name = request.properties.AlarmName;
    if (typeof name !== 'string' || name === '') return undefined;
    const holder = await describe(await cloudWatch(context), name);
    return { name, ...(holder ? { holder: name } : {}) };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await cloudWatch(context);
    const name = request.physicalId;
    const signal = { abortSignal: context.signal };
    await client.send(new PutMetricAlarmCommand(putMetricAlarmInput(name, request.properties)), signal);
    // PutMetricAlarm ignores Tags on an existing alarm: only the template's own tags change, others stay.
    const arn = alarmArn(name, context);
    const { set, remove } = tagDiff(tagMap(request.previousProperties.Tags), tagMap(request.properties.Tags));
    if (remove.length > 0) {
      await client.send(new UntagResourceCommand({ ResourceARN: arn, TagKeys: remove }), signal);
    }
    if (Object.keys(set).length > 0) {
      await client.send(new TagResourceCommand({ ResourceARN: arn, Tags: tagList(set) }), signal);
    }
    return { physicalId: name, attributes: { Arn: arn } };
  }

  /** An alarm already gone is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await cloudWatch(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteAlarmsCommand({ AlarmNames: [request.physicalId] }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('ResourceNotFound'),
    );
  }

  /** Observed properties: the alarm's configuration as DescribeAlarms returns it, and its tags. */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await cloudWatch(context);
    const alarm = await describe(client, request.physicalId);
    if (!alarm?.AlarmArn) return undefined;
    const { Tags } = await client.send(new ListTagsForResourceCommand({ ResourceARN: alarm.AlarmArn }));
    return {
      properties: {
        ...alarmProperties(alarm as Record<string, unknown>),
        ...(Tags && Tags.length > 0 ? { Tags } : {}),
      },
      attributes: { Arn: alarm.AlarmArn },
      creationIdentity: { AlarmArn: alarm.AlarmArn },
    };
  }
}

function alarmName(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.AlarmName, context.stackName, request, ALARM_NAME_RULES);
}

function alarmArn(name: string, context: ProviderContext): string {
  return `arn:${partitionForRegion(context.region)}:cloudwatch:${context.region}:${context.accountId}:alarm:${name}`;
}

function cloudWatch(context: ProviderContext): Promise<CloudWatchClient> {
  return context.clients.client(CloudWatchClient, context.region);
}

async function describe(client: CloudWatchClient, name: string): Promise<MetricAlarm | undefined> {
  const output = await client.send(new DescribeAlarmsCommand({ AlarmNames: [name] }));
  return output.MetricAlarms?.find((alarm) => alarm.AlarmName === name);
}

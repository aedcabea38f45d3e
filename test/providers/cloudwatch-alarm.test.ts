import {
  CloudWatchClient,
  DescribeAlarmsCommand,
  ListTagsForResourceCommand,
  PutMetricAlarmCommand,
  TagResourceCommand,
} from '@aws-sdk/client-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { driftOf } from '../../src/engine/drift/drift-rules.js';
import { AlarmProvider } from '../../src/providers/cloudwatch/alarm.js';
import { CLOUDWATCH_REF_ATTRIBUTES } from '../../src/providers/cloudwatch/ref-attributes.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import { useSandbox } from '../helpers/sandbox.js';

useSandbox();
const type = 'AWS::CloudWatch::Alarm';
const ACCOUNT = '000000000000';
const alarms = new AlarmProvider();
let context: ProviderContext;
let cw: CloudWatchClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'AlarmStack' };
  cw = await clients.client(CloudWatchClient, 'us-east-1');
});

const arnOf = (name: string) => `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:${name}`;
const live = async (name: string) =>
  (await cw.send(new DescribeAlarmsCommand({ AlarmNames: [name] }))).MetricAlarms?.[0];
const tagsOf = async (name: string) =>
  (await cw.send(new ListTagsForResourceCommand({ ResourceARN: arnOf(name) }))).Tags;

// Numbers as a resolved parameter gives them (text), as CloudFormation accepts them.
const cpu = {
  AlarmName: 'cpu-high',
  MetricName: 'CPUUtilization',
  Namespace: 'AWS/EC2',
  Statistic: 'Average',
  Period: '300',
  EvaluationPeriods: 2,
  Threshold: '80.5',
  ComparisonOperator: 'GreaterThanThreshold',
  Dimensions: [{ Name: 'InstanceId', Value: 'i-1' }],
  AlarmActions: ['arn:aws:sns:us-east-1:000000000000:ops'],
  ActionsEnabled: 'false',
  Tags: [{ Key: 'team', Value: 'a' }],
};

describe('AWS::CloudWatch::Alarm', () => {
  it('creates, updates in place keeping a tag added out of band, reads back and deletes', async () => {
    const created = await alarms.create({ logicalId: 'Cpu', type, properties: cpu }, context);
    expect(created).toMatchObject({
      physicalId: 'cpu-high',
      attributes: { Arn: arnOf('cpu-high') },
      creationIdentity: { AlarmArn: arnOf('cpu-high') },
    });
    expect(await live('cpu-high')).toMatchObject({
      Period: 300,
      Threshold: 80.5,
      ActionsEnabled: false,
      Dimensions: [{ Name: 'InstanceId', Value: 'i-1' }],
    });
    expect(await tagsOf('cpu-high')).toEqual([{ Key: 'team', Value: 'a' }]);
    await cw.send(
      new TagResourceCommand({ ResourceARN: arnOf('cpu-high'), Tags: [{ Key: 'oob', Value: '1' }] }),
    );

    const request = { logicalId: 'Cpu', type, physicalId: 'cpu-high' };
    const rest: Record<string, unknown> = { ...cpu };
    delete rest.AlarmActions;
    const next = { ...rest, Threshold: 90, Tags: [{ Key: 'env', Value: 'prod' }] };
    const updated = await alarms.update({ ...request, properties: next, previousProperties: cpu }, context);
    expect(updated).toEqual({ physicalId: 'cpu-high', attributes: { Arn: arnOf('cpu-high') } });
    expect((await live('cpu-high'))?.AlarmActions).toEqual([]);
    expect(await tagsOf('cpu-high')).toEqual([
      { Key: 'oob', Value: '1' },
      { Key: 'env', Value: 'prod' },
    ]);

    const read = await alarms.read({ ...request, properties: next }, context);
    expect(read?.properties).toEqual({
      AlarmName: 'cpu-high',
      ActionsEnabled: false,
      MetricName: 'CPUUtilization',
      Namespace: 'AWS/EC2',
      Statistic: 'Average',
      Period: 300,
      EvaluationPeriods: 2,
      Threshold: 90,
      ComparisonOperator: 'GreaterThanThreshold',
      Dimensions: [{ Name: 'InstanceId', Value: 'i-1' }],
      Tags: [
        { Key: 'oob', Value: '1' },
        { Key: 'env', Value: 'prod' },
      ],
    });
    expect(read?.attributes).toEqual({ Arn: arnOf('cpu-high') });
    await alarms.delete({ ...request, properties: next }, context);
    expect(await alarms.read({ ...request, properties: next }, context)).toBeUndefined();
    await alarms.delete({ ...request, properties: next }, context);
  });

  it('reads back what it applied, so drift sees only a change made out of band', async () => {
    const properties = { ...cpu, AlarmName: 'drift-check' };
    await alarms.create({ logicalId: 'Drift', type, properties }, context);
    const request = { logicalId: 'Drift', type, physicalId: 'drift-check', properties };
    expect(driftOf(properties, (await alarms.read(request, context))!.properties)).toEqual([]);
    await cw.send(
      new PutMetricAlarmCommand({ ...(await live('drift-check'))!, AlarmName: 'drift-check', Threshold: 1 }),
    );
    expect(driftOf(properties, (await alarms.read(request, context))!.properties)).toEqual([
      { property: 'Threshold', recorded: '80.5', live: 1 },
    ]);
  });

  it('sends a metric-math alarm, its query numbers and flags typed', async () => {
    const properties = {
      AlarmName: 'error-rate',
      EvaluationPeriods: 1,
      DatapointsToAlarm: '1',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Metrics: [
        {
          Id: 'errors',
          ReturnData: 'false',
          MetricStat: {
            Metric: { Namespace: 'App', MetricName: 'Errors', Dimensions: [{ Name: 'Fn', Value: 'f' }] },
            Period: '60',
            Stat: 'Sum',
          },
        },
        { Id: 'rate', Expression: 'errors / 60', Label: 'per second' },
      ],
    };
    await alarms.create({ logicalId: 'Rate', type, properties }, context);
    expect((await live('error-rate'))?.Metrics).toEqual([
      {
        Id: 'errors',
        ReturnData: false,
        MetricStat: {
          Metric: { Namespace: 'App', MetricName: 'Errors', Dimensions: [{ Name: 'Fn', Value: 'f' }] },
          Period: 60,
          Stat: 'Sum',
        },
      },
      { Id: 'rate', Expression: 'errors / 60', Label: 'per second' },
    ]);
  });

  it('refuses what CloudWatch refuses, with its code', async () => {
    const noStatistic: Record<string, unknown> = { ...cpu };
    delete noStatistic.Statistic;
    await expect(
      alarms.create({ logicalId: 'Bad', type, properties: { ...noStatistic, AlarmName: 'bad' } }, context),
    ).rejects.toMatchObject({ Code: 'ValidationError' });
  });

  it('names an unnamed alarm from its token, locates it, and looks an explicit name up', async () => {
    const unnamed: Record<string, unknown> = { ...cpu };
    delete unnamed.AlarmName;
    const request = { logicalId: 'Unnamed', type, properties: unnamed, idempotencyToken: 'token-1' };
    expect(await alarms.locate(request, context)).toBe('none');
    const created = await alarms.create(request, context);
    expect(created.physicalId).toMatch(/^AlarmStack-Unnamed-[A-Z0-9]{12}$/);
    expect(await alarms.locate(request, context)).toEqual({ physicalId: created.physicalId });
    expect(await alarms.locate({ ...request, properties: cpu }, context)).toBe('unknown');

    expect(
      await alarms.nameHolder(
        { logicalId: 'X', type, properties: { ...cpu, AlarmName: 'free-name' } },
        context,
      ),
    ).toEqual({
      name: 'free-name',
    });
    await alarms.create({ logicalId: 'Held', type, properties: { ...cpu, AlarmName: 'held-name' } }, context);
    expect(
      await alarms.nameHolder(
        { logicalId: 'X', type, properties: { ...cpu, AlarmName: 'held-name' } },
        context,
      ),
    ).toEqual({
      name: 'held-name',
      holder: 'held-name',
    });
    expect(await alarms.nameHolder(request, context)).toBeUndefined();
  });

  it('leaves the newer evaluation settings to Cloud Control, and replaces only for a new AlarmName', () => {
    expect(alarms.uncoveredProperties(type, cpu)).toEqual([]);
    const withWindow = {
      ...cpu,
      EvaluationWindow: { SlidingWindow: {} },
      WarmUpConfiguration: {},
      EvaluationInterval: 60,
    };
    expect(alarms.uncoveredProperties(type, withWindow)).toEqual([
      'EvaluationWindow',
      'WarmUpConfiguration',
      'EvaluationInterval',
    ]);
    expect(alarms.canUpdateInPlace(type, ['Threshold', 'Metrics', 'Dimensions', 'EvaluationWindow'])).toBe(
      true,
    );
    expect(alarms.canUpdateInPlace(type, ['AlarmName'])).toBe(false);
  });

  it('is registered, and an alarm gaining EvaluationWindow routes through Cloud Control', async () => {
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    await registry.load([type]);
    expect(registry.route({ type, properties: cpu }).provider).toBeInstanceOf(AlarmProvider);
    const routed = registry.route({
      type,
      properties: { ...cpu, EvaluationWindow: { SlidingWindow: {} } },
      recordedProperties: cpu,
      recordedBy: 'sdk',
    });
    expect(routed).toMatchObject({
      provisionedBy: 'cc-api',
      reason: 'uncovered-property',
      properties: ['EvaluationWindow'],
    });
    expect(
      registry.route({ type, properties: cpu, recordedProperties: cpu, recordedBy: 'cc-api' }).provisionedBy,
    ).toBe('cc-api');
  });

  it.each(Object.entries(CLOUDWATCH_REF_ATTRIBUTES))('Ref and GetAtt row %s', async (_type, row) => {
    const created = await alarms.create(
      { logicalId: 'Row', type, properties: { ...cpu, AlarmName: 'ref-row' } },
      context,
    );
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([name, shape]) => [
        name,
        shape
          .replace('{region}', 'us-east-1')
          .replace('{account}', ACCOUNT)
          .replace('{name}', created.physicalId),
      ]),
    );
    expect(created.attributes).toEqual(expected);
  });
});

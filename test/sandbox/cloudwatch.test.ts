import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmsCommand,
  ListTagsForResourceCommand,
  PutCompositeAlarmCommand,
  PutMetricAlarmCommand,
  TagResourceCommand,
  UntagResourceCommand,
  type PutMetricAlarmCommandInput,
} from '@aws-sdk/client-cloudwatch';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let cw: CloudWatchClient;
let cc: CloudControlClient;
const ARN = 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  cw = new CloudWatchClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  cw.destroy();
  cc.destroy();
  await sandbox.stop();
});

const cpuAlarm = (
  name: string,
  extra: Partial<PutMetricAlarmCommandInput> = {},
): PutMetricAlarmCommandInput => ({
  AlarmName: name,
  MetricName: 'CPUUtilization',
  Namespace: 'AWS/EC2',
  Statistic: 'Average',
  Period: 300,
  EvaluationPeriods: 2,
  Threshold: 80,
  ComparisonOperator: 'GreaterThanThreshold',
  ...extra,
});

async function alarm(name: string) {
  return (await cw.send(new DescribeAlarmsCommand({ AlarmNames: [name] }))).MetricAlarms?.[0];
}

async function run(command: CreateResourceCommand | UpdateResourceCommand | DeleteResourceCommand) {
  const accepted = await cc.send(command as CreateResourceCommand);
  return (await settle(cc, accepted.ProgressEvent!)).event;
}

describe('CloudWatch metric alarms', () => {
  it('puts an alarm, describes it with its defaults and state, and overwrites its whole configuration', async () => {
    await cw.send(
      new PutMetricAlarmCommand(
        cpuAlarm('cpu-high', {
          Dimensions: [{ Name: 'InstanceId', Value: 'i-1' }],
          AlarmActions: ['arn:aws:sns:us-east-1:123456789012:ops'],
          Tags: [{ Key: 'team', Value: 'a' }],
        }),
      ),
    );
    const first = await alarm('cpu-high');
    expect(first).toMatchObject({
      AlarmName: 'cpu-high',
      AlarmArn: `${ARN}cpu-high`,
      ActionsEnabled: true,
      OKActions: [],
      AlarmActions: ['arn:aws:sns:us-east-1:123456789012:ops'],
      Dimensions: [{ Name: 'InstanceId', Value: 'i-1' }],
      Threshold: 80,
      StateValue: 'INSUFFICIENT_DATA',
      StateReason: 'Unchecked: Initial alarm creation',
    });
    expect(first?.AlarmConfigurationUpdatedTimestamp).toBeInstanceOf(Date);

    // An update replaces the configuration: what it leaves out is gone; its tags are ignored.
    await cw.send(
      new PutMetricAlarmCommand(cpuAlarm('cpu-high', { Threshold: 90, Tags: [{ Key: 'x', Value: 'y' }] })),
    );
    const second = await alarm('cpu-high');
    expect(second).toMatchObject({ Threshold: 90, AlarmActions: [], Dimensions: [] });
    const tags = await cw.send(new ListTagsForResourceCommand({ ResourceARN: `${ARN}cpu-high` }));
    expect(tags.Tags).toEqual([{ Key: 'team', Value: 'a' }]);
  });

  it.each([
    [
      'no EvaluationPeriods',
      { EvaluationPeriods: undefined },
      'ValidationException',
      'ValidationError',
      /evaluationPeriods/,
    ],
    [
      'no ComparisonOperator',
      { ComparisonOperator: undefined },
      'ValidationException',
      'ValidationError',
      /comparisonOperator/,
    ],
    [
      'an unknown Statistic',
      { Statistic: 'Median' as never },
      'ValidationException',
      'ValidationError',
      /enum value set/,
    ],
    [
      'Statistic with ExtendedStatistic',
      { ExtendedStatistic: 'p99' },
      'InvalidParameterCombinationException',
      'InvalidParameterCombination',
      /mutually exclusive/,
    ],
    ['a Period of 45', { Period: 45 }, 'ValidationException', 'ValidationError', /multiple of 60/],
    [
      'DatapointsToAlarm above EvaluationPeriods',
      { DatapointsToAlarm: 3 },
      'ValidationException',
      'ValidationError',
      /DatapointsToAlarm/,
    ],
    ['no Threshold', { Threshold: undefined }, 'ValidationException', 'ValidationError', /Threshold/],
    [
      'an action that is no ARN',
      { OKActions: ['ops-topic'] },
      'ValidationException',
      'ValidationError',
      /Invalid arn/,
    ],
    [
      'an unknown TreatMissingData',
      { TreatMissingData: 'zero' },
      'ValidationException',
      'ValidationError',
      /TreatMissingData/,
    ],
    [
      'a reserved tag key',
      { Tags: [{ Key: 'aws:x', Value: '1' }] },
      'InvalidParameterValueException',
      'InvalidParameterValue',
      /reserved/,
    ],
    [
      'both EvaluationWindow members',
      { EvaluationWindow: { SlidingWindow: {}, WallClockWindow: {} } as never },
      'ValidationException',
      'ValidationError',
      /exactly one/,
    ],
    [
      'a WallClockWindow on a 120-second period',
      { Period: 120, EvaluationWindow: { WallClockWindow: {} } },
      'ValidationException',
      'ValidationError',
      /WallClockWindow/,
    ],
  ])('refuses %s with AWS code and query code', async (_case, change, name, code, message) => {
    const refused = await failure(cw.send(new PutMetricAlarmCommand(cpuAlarm('refused', change))));
    expect(refused).toMatchObject({ name, status: 400 });
    expect(refused.error.Code).toBe(code);
    expect(refused.error.message).toMatch(message);
    expect(await alarm('refused')).toBeUndefined();
  });

  it('takes a metric-math alarm with one query returning data, and refuses a second one or a MetricName beside Metrics', async () => {
    const metrics = [
      {
        Id: 'errors',
        MetricStat: { Metric: { Namespace: 'App', MetricName: 'Errors' }, Period: 60, Stat: 'Sum' },
        ReturnData: false,
      },
      { Id: 'rate', Expression: 'errors / 60', Label: 'per second' },
    ];
    const math = {
      ...cpuAlarm('math'),
      MetricName: undefined,
      Namespace: undefined,
      Statistic: undefined,
      Period: undefined,
      Metrics: metrics,
    };
    await cw.send(new PutMetricAlarmCommand(math));
    expect((await alarm('math'))?.Metrics).toEqual(metrics);
    expect((await alarm('math'))?.Dimensions).toBeUndefined();

    const twoReturning = {
      ...math,
      AlarmName: 'math-2',
      Metrics: [{ ...metrics[0]!, ReturnData: true }, metrics[1]!],
    };
    const refused = await failure(cw.send(new PutMetricAlarmCommand(twoReturning)));
    expect(refused.name).toBe('ValidationException');
    expect(refused.error.message).toBe('Exactly one element of the metrics list should return data.');
    const both = await failure(
      cw.send(new PutMetricAlarmCommand({ ...math, AlarmName: 'math-3', MetricName: 'Errors' })),
    );
    expect(both.name).toBe('InvalidParameterCombinationException');
  });

  it('lists by prefix, pages with NextToken and refuses names with a prefix', async () => {
    for (const name of ['page-a', 'page-b', 'page-c'])
      await cw.send(new PutMetricAlarmCommand(cpuAlarm(name)));
    const first = await cw.send(new DescribeAlarmsCommand({ AlarmNamePrefix: 'page-', MaxRecords: 2 }));
    expect(first.MetricAlarms?.map((a) => a.AlarmName)).toEqual(['page-a', 'page-b']);
    const rest = await cw.send(
      new DescribeAlarmsCommand({ AlarmNamePrefix: 'page-', MaxRecords: 2, NextToken: first.NextToken }),
    );
    expect(rest.MetricAlarms?.map((a) => a.AlarmName)).toEqual(['page-c']);
    expect(rest.NextToken).toBeUndefined();
    const combined = await failure(
      cw.send(new DescribeAlarmsCommand({ AlarmNames: ['page-a'], AlarmNamePrefix: 'page-' })),
    );
    expect(combined.name).toBe('InvalidParameterCombinationException');
    const badToken = await failure(cw.send(new DescribeAlarmsCommand({ NextToken: 'bm9wZQ==' })));
    expect(badToken.name).toBe('InvalidNextToken');
  });

  it('deletes alarms, and deletes none when one named does not exist', async () => {
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('gone-1')));
    const missing = await failure(cw.send(new DeleteAlarmsCommand({ AlarmNames: ['gone-1', 'never-was'] })));
    expect(missing).toMatchObject({ name: 'ResourceNotFound', status: 404 });
    expect(missing.error.message).toContain('never-was');
    expect(await alarm('gone-1')).toBeDefined();
    await cw.send(new DeleteAlarmsCommand({ AlarmNames: ['gone-1'] }));
    expect(await alarm('gone-1')).toBeUndefined();
  });

  it('tags and untags an alarm by ARN, and refuses an ARN naming no alarm', async () => {
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('tagged')));
    const arn = `${ARN}tagged`;
    await cw.send(
      new TagResourceCommand({
        ResourceARN: arn,
        Tags: [
          { Key: 'a', Value: '1' },
          { Key: 'b', Value: '2' },
        ],
      }),
    );
    await cw.send(new TagResourceCommand({ ResourceARN: arn, Tags: [{ Key: 'a', Value: '3' }] }));
    await cw.send(new UntagResourceCommand({ ResourceARN: arn, TagKeys: ['b'] }));
    expect((await cw.send(new ListTagsForResourceCommand({ ResourceARN: arn }))).Tags).toEqual([
      { Key: 'a', Value: '3' },
    ]);
    const unknown = await failure(
      cw.send(new TagResourceCommand({ ResourceARN: `${ARN}nope`, Tags: [{ Key: 'a', Value: '1' }] })),
    );
    expect(unknown).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(unknown.error.ResourceId).toBe(`${ARN}nope`);
    const malformed = await failure(cw.send(new ListTagsForResourceCommand({ ResourceARN: 'not-an-arn' })));
    expect(malformed.name).toBe('InvalidParameterValueException');
  });
});

describe('alarms per account', () => {
  it("keeps one name apart in two accounts, and refuses tagging another account's alarm", async () => {
    const other = new CloudWatchClient({
      endpoint: sandbox.url,
      region: 'us-east-1',
      credentials: { accessKeyId: '222222222222', secretAccessKey: 'sandbox-secret' },
      maxAttempts: 1,
    });
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('same-name', { Threshold: 1 })));
    await other.send(new PutMetricAlarmCommand(cpuAlarm('same-name', { Threshold: 2 })));
    expect((await alarm('same-name'))?.Threshold).toBe(1);
    const theirs = (await other.send(new DescribeAlarmsCommand({ AlarmNames: ['same-name'] }))).MetricAlarms;
    expect(theirs).toMatchObject([
      { Threshold: 2, AlarmArn: 'arn:aws:cloudwatch:us-east-1:222222222222:alarm:same-name' },
    ]);
    const crossAccount = await failure(
      cw.send(
        new TagResourceCommand({
          ResourceARN: 'arn:aws:cloudwatch:us-east-1:222222222222:alarm:same-name',
          Tags: [{ Key: 'a', Value: '1' }],
        }),
      ),
    );
    expect(crossAccount.name).toBe('ResourceNotFoundException');
    await other.send(new DeleteAlarmsCommand({ AlarmNames: ['same-name'] }));
    expect(await alarm('same-name')).toBeDefined();
    other.destroy();
  });
});

describe('CloudWatch composite alarms', () => {
  it('puts a composite alarm over existing alarms, lists it only when asked, and refuses a rule naming a missing one', async () => {
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('child-a')));
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('child-b')));
    const rule = `ALARM("${ARN}child-a") OR OK(child-b)`;
    await cw.send(
      new PutCompositeAlarmCommand({
        AlarmName: 'parent',
        AlarmRule: rule,
        Tags: [{ Key: 'k', Value: 'v' }],
      }),
    );
    const both = await cw.send(
      new DescribeAlarmsCommand({ AlarmNamePrefix: 'parent', AlarmTypes: ['CompositeAlarm', 'MetricAlarm'] }),
    );
    expect(both.MetricAlarms).toEqual([]);
    expect(both.CompositeAlarms).toMatchObject([
      { AlarmName: 'parent', AlarmArn: `${ARN}parent`, AlarmRule: rule, StateValue: 'INSUFFICIENT_DATA' },
    ]);
    expect((await cw.send(new DescribeAlarmsCommand({ AlarmNames: ['parent'] }))).MetricAlarms).toEqual([]);
    expect((await cw.send(new ListTagsForResourceCommand({ ResourceARN: `${ARN}parent` }))).Tags).toEqual([
      { Key: 'k', Value: 'v' },
    ]);

    const dangling = await failure(
      cw.send(
        new PutCompositeAlarmCommand({ AlarmName: 'dangling', AlarmRule: 'ALARM(child-a) AND ALARM(nope)' }),
      ),
    );
    expect(dangling.name).toBe('ValidationException');
    expect(dangling.error.message).toContain('[nope]');
    const overwrite = await failure(cw.send(new PutMetricAlarmCommand(cpuAlarm('parent'))));
    expect(overwrite.name).toBe('ValidationException');
    const suppressor = await failure(
      cw.send(
        new PutCompositeAlarmCommand({
          AlarmName: 'sup',
          AlarmRule: 'ALARM(child-a)',
          ActionsSuppressor: 'child-b',
        }),
      ),
    );
    expect(suppressor.error.message).toContain('ActionsSuppressorWaitPeriod');

    await cw.send(new DeleteAlarmsCommand({ AlarmNames: ['parent'] }));
    expect(
      (await cw.send(new DescribeAlarmsCommand({ AlarmTypes: ['CompositeAlarm'] }))).CompositeAlarms,
    ).toEqual([]);
  });
});

describe('Cloud Control and CloudWatch share one alarm store', () => {
  it('reads and updates by AlarmName an alarm PutMetricAlarm made, keeping a tag added out of band', async () => {
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('shared', { Tags: [{ Key: 'owner', Value: 'sdk' }] })));
    await cw.send(
      new TagResourceCommand({ ResourceARN: `${ARN}shared`, Tags: [{ Key: 'oob', Value: 'kept' }] }),
    );
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::CloudWatch::Alarm', Identifier: 'shared' }),
    );
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({
      AlarmName: 'shared',
      Arn: `${ARN}shared`,
      Threshold: 80,
      Tags: [
        { Key: 'owner', Value: 'sdk' },
        { Key: 'oob', Value: 'kept' },
      ],
    });

    const patch = [{ op: 'add', path: '/EvaluationWindow', value: { WallClockWindow: { Timezone: 'UTC' } } }];
    const updated = await run(
      new UpdateResourceCommand({
        TypeName: 'AWS::CloudWatch::Alarm',
        Identifier: 'shared',
        PatchDocument: JSON.stringify(patch),
      }),
    );
    expect(updated.OperationStatus).toBe('SUCCESS');
    expect((await alarm('shared'))?.EvaluationWindow).toEqual({ WallClockWindow: { Timezone: 'UTC' } });
    const tags = await cw.send(new ListTagsForResourceCommand({ ResourceARN: `${ARN}shared` }));
    expect(tags.Tags?.map((t) => t.Key)).toEqual(['owner', 'oob']);
  });

  it('makes through Cloud Control an alarm DescribeAlarms lists, refuses an invalid one, and deletes it', async () => {
    const made = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::CloudWatch::Alarm',
        DesiredState: JSON.stringify({ ...cpuAlarm('cc-made'), Threshold: '5', ActionsEnabled: 'false' }),
      }),
    );
    expect(made).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'cc-made' });
    expect(await alarm('cc-made')).toMatchObject({ Threshold: 5, ActionsEnabled: false });
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(inventory.json.monitoring['AWS::CloudWatch::Alarm'].map((a: { id: string }) => a.id)).toContain(
      'cc-made',
    );

    const invalid = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::CloudWatch::Alarm',
        DesiredState: JSON.stringify(cpuAlarm('cc-bad', { Period: 7 })),
      }),
    );
    expect(invalid).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
    expect(invalid.StatusMessage).toContain('multiple of 60');

    const unnamed = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::CloudWatch::Alarm',
        DesiredState: JSON.stringify({ ...cpuAlarm(''), AlarmName: undefined }),
      }),
    );
    expect(unnamed.Identifier).toMatch(/^Alarm-[A-Z0-9]{12}$/);

    expect(
      (await run(new DeleteResourceCommand({ TypeName: 'AWS::CloudWatch::Alarm', Identifier: 'cc-made' })))
        .OperationStatus,
    ).toBe('SUCCESS');
    expect(await alarm('cc-made')).toBeUndefined();
  });

  it('serves composite alarms to Cloud Control apart from metric alarms', async () => {
    await cw.send(new PutMetricAlarmCommand(cpuAlarm('cc-child')));
    const made = await run(
      new CreateResourceCommand({
        TypeName: 'AWS::CloudWatch::CompositeAlarm',
        DesiredState: JSON.stringify({ AlarmName: 'cc-parent', AlarmRule: `ALARM("${ARN}cc-child")` }),
      }),
    );
    expect(made).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'cc-parent' });
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::CloudWatch::CompositeAlarm', Identifier: 'cc-parent' }),
    );
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({
      Arn: `${ARN}cc-parent`,
      ActionsEnabled: true,
    });
    const asMetric = await failure(
      cc.send(new GetResourceCommand({ TypeName: 'AWS::CloudWatch::Alarm', Identifier: 'cc-parent' })),
    );
    expect(asMetric.name).toBe('ResourceNotFoundException');
    const inventory = await admin(sandbox, 'GET', 'inventory');
    expect(
      inventory.json.monitoring['AWS::CloudWatch::CompositeAlarm'].map((a: { id: string }) => a.id),
    ).toEqual(['cc-parent']);
  });
});

describe('alarms across a restart', () => {
  it('keeps an alarm, its configuration and tags in the data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cdkd-cw-'));
    const client = (url: string) =>
      new CloudWatchClient({
        endpoint: url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
        maxAttempts: 1,
      });
    try {
      const first = await startSandbox({ port: 0, dataDir });
      await client(first.url).send(
        new PutMetricAlarmCommand(cpuAlarm('kept', { Tags: [{ Key: 'k', Value: 'v' }] })),
      );
      await first.stop();
      const second = await startSandbox({ port: 0, dataDir });
      const again = client(second.url);
      expect(
        (await again.send(new DescribeAlarmsCommand({ AlarmNames: ['kept'] }))).MetricAlarms?.[0],
      ).toMatchObject({
        Threshold: 80,
        Period: 300,
      });
      const arn = 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:kept';
      expect((await again.send(new ListTagsForResourceCommand({ ResourceARN: arn }))).Tags).toEqual([
        { Key: 'k', Value: 'v' },
      ]);
      again.destroy();
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

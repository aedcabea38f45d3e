import {
  CloudWatchClient,
  DescribeAlarmsCommand,
  ListTagsForResourceCommand,
  TagResourceCommand,
} from '@aws-sdk/client-cloudwatch';
import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, CfnAlarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Spec 002 "When the auto-route needs a recreate", the measured fixture: an alarm the SDK
// provider deployed gains EvaluationWindow (which that provider does not send) with no flag.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const STACK = 'AutoRoute';
const ALARM_NAME = 'autoroute-queue-depth';
const WINDOW = { WallClockWindow: { Timezone: 'Europe/Paris' } };

/** The CDK app: one alarm on a queue-depth metric, with EvaluationWindow when `window` is set. */
function app(window?: object): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const alarm = new Alarm(stack, 'QueueDepth', {
      alarmName: ALARM_NAME,
      metric: new Metric({
        namespace: 'AWS/SQS',
        metricName: 'ApproximateNumberOfMessagesVisible',
        dimensionsMap: { QueueName: 'orders' },
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 100,
      evaluationPeriods: 3,
    });
    if (window) (alarm.node.defaultChild as CfnAlarm).addPropertyOverride('EvaluationWindow', window);
  });
}

interface AlarmRecord {
  type: string;
  physicalId: string;
  provisionedBy: string;
  properties: Record<string, unknown>;
}

async function alarmRecord(): Promise<AlarmRecord> {
  const shown = await cli(['state', 'show', STACK, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const resources = Object.values(JSON.parse(shown.stdout).resources as Record<string, AlarmRecord>);
  return resources.find((resource) => resource.type === 'AWS::CloudWatch::Alarm')!;
}

let cloudWatch: CloudWatchClient;
const arn = `arn:aws:cloudwatch:us-east-1:000000000000:alarm:${ALARM_NAME}`;
const liveAlarm = async () =>
  (await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [ALARM_NAME] }))).MetricAlarms?.[0];
const tagKeys = async () =>
  ((await cloudWatch.send(new ListTagsForResourceCommand({ ResourceARN: arn }))).Tags ?? []).map(
    (t) => t.Key,
  );

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  cloudWatch = new CloudWatchClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
});

describe('an SDK-deployed alarm gaining a property the SDK provider drops', () => {
  it('is updated in place through Cloud Control, keeping its id and an out-of-band tag; a recreate loses the tag', async () => {
    const first = await cli(['deploy', '-a', app()]);
    expect(first.code, first.stderr).toBe(0);
    const before = await alarmRecord();
    expect(before).toMatchObject({ physicalId: ALARM_NAME, provisionedBy: 'sdk' });
    expect((await liveAlarm())?.EvaluationWindow).toBeUndefined();
    await cloudWatch.send(
      new TagResourceCommand({ ResourceARN: arn, Tags: [{ Key: 'attached-out-of-band', Value: 'yes' }] }),
    );

    // No flag: the routing decision is re-made on this deploy and sends the alarm to Cloud Control.
    const withWindow = app(WINDOW);
    const routed = await cli(['deploy', '-a', withWindow]);
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.stderr).toMatch(/QueueDepth\w* \(AWS::CloudWatch::Alarm\) updated/);
    expect(routed.stderr).not.toMatch(/QueueDepth\w* \(AWS::CloudWatch::Alarm\) replaced/);
    const after = await alarmRecord();
    expect(after.provisionedBy).toBe('cc-api');
    expect(after.physicalId).toBe(before.physicalId);
    expect(before.properties.EvaluationWindow).toBeUndefined();
    expect(after.properties.EvaluationWindow).toEqual(WINDOW);
    expect((await liveAlarm())?.EvaluationWindow).toEqual(WINDOW);
    expect(await tagKeys()).toContain('attached-out-of-band');

    // The recreate phase: with the alarm deleted and made again, the tag attached out of band is gone,
    // so its survival above was the update keeping it.
    const destroyed = await cli(['destroy', '-a', withWindow, STACK, '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(await liveAlarm()).toBeUndefined();
    const recreated = await cli(['deploy', '-a', withWindow]);
    expect(recreated.code, recreated.stderr).toBe(0);
    expect(await alarmRecord()).toMatchObject({ physicalId: ALARM_NAME, provisionedBy: 'cc-api' });
    expect((await liveAlarm())?.EvaluationWindow).toEqual(WINDOW);
    expect(await tagKeys()).not.toContain('attached-out-of-band');
  });
});

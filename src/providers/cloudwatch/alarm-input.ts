import type { Dimension, MetricDataQuery, PutMetricAlarmCommandInput } from '@aws-sdk/client-cloudwatch';
import type { JsonObject } from '../provider.js';
import { stringList } from '../property-values.js';

/**
 * The template properties PutMetricAlarm is sent. The evaluation settings added for PromQL
 * and wall-clock alarms (EvaluationWindow, EvaluationCriteria, EvaluationInterval,
 * WarmUpConfiguration) are left to Cloud Control: they are unions and settings whose
 * combinations the SDK provider does not check or read back, and a template that sets one
 * routes the alarm through Cloud Control (spec 003).
 */
export const ALARM_PROPERTIES = [
  'ActionsEnabled',
  'AlarmActions',
  'AlarmDescription',
  'AlarmName',
  'ComparisonOperator',
  'DatapointsToAlarm',
  'Dimensions',
  'EvaluateLowSampleCountPercentile',
  'EvaluationPeriods',
  'ExtendedStatistic',
  'InsufficientDataActions',
  'MetricName',
  'Metrics',
  'Namespace',
  'OKActions',
  'Period',
  'Statistic',
  'Tags',
  'Threshold',
  'ThresholdMetricId',
  'TreatMissingData',
  'Unit',
] as const;

const ACTION_LISTS = ['OKActions', 'AlarmActions', 'InsufficientDataActions'] as const;

/**
 * PutMetricAlarm's input for the template's properties (Tags apart: PutMetricAlarm sets
 * them on a new alarm only). Numbers and booleans a parameter resolved to text are sent typed.
 */
export function putMetricAlarmInput(name: string, props: JsonObject): PutMetricAlarmCommandInput {
  const text = (key: string) => (props[key] === undefined ? undefined : String(props[key]));
  const input: Record<string, unknown> = {
    AlarmName: name,
    AlarmDescription: text('AlarmDescription'),
    ActionsEnabled: flag(props.ActionsEnabled),
    MetricName: text('MetricName'),
    Namespace: text('Namespace'),
    Statistic: text('Statistic'),
    ExtendedStatistic: text('ExtendedStatistic'),
    Dimensions: props.Dimensions === undefined ? undefined : dimensions(props.Dimensions),
    Period: number(props.Period),
    Unit: text('Unit'),
    EvaluationPeriods: number(props.EvaluationPeriods),
    DatapointsToAlarm: number(props.DatapointsToAlarm),
    Threshold: number(props.Threshold),
    ComparisonOperator: text('ComparisonOperator'),
    TreatMissingData: text('TreatMissingData'),
    EvaluateLowSampleCountPercentile: text('EvaluateLowSampleCountPercentile'),
    ThresholdMetricId: text('ThresholdMetricId'),
    Metrics: Array.isArray(props.Metrics) ? (props.Metrics as JsonObject[]).map(metricQuery) : undefined,
  };
  for (const list of ACTION_LISTS) {
    if (props[list] !== undefined) input[list] = stringList(props[list]);
  }
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as unknown as PutMetricAlarmCommandInput;
}

/** A DescribeAlarms MetricAlarm in template terms (tags apart): AWS's empty defaults left out, as a template leaves them. */
export function alarmProperties(alarm: Record<string, unknown>): JsonObject {
  const properties: JsonObject = {};
  for (const key of ALARM_PROPERTIES) {
    if (key === 'Tags') continue;
    const value = alarm[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    properties[key] = value;
  }
  return properties;
}

function metricQuery(query: JsonObject): MetricDataQuery {
  const stat = query.MetricStat as JsonObject | undefined;
  const metric = stat?.Metric as JsonObject | undefined;
  const compact = (value: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return compact({
    Id: String(query.Id),
    Expression: query.Expression === undefined ? undefined : String(query.Expression),
    Label: query.Label === undefined ? undefined : String(query.Label),
    ReturnData: flag(query.ReturnData),
    Period: number(query.Period),
    AccountId: query.AccountId === undefined ? undefined : String(query.AccountId),
    MetricStat: stat
      ? compact({
          Metric: metric
            ? compact({
                Namespace: metric.Namespace === undefined ? undefined : String(metric.Namespace),
                MetricName: metric.MetricName === undefined ? undefined : String(metric.MetricName),
                Dimensions: metric.Dimensions === undefined ? undefined : dimensions(metric.Dimensions),
              })
            : undefined,
          Period: number(stat.Period),
          Stat: stat.Stat === undefined ? undefined : String(stat.Stat),
          Unit: stat.Unit === undefined ? undefined : String(stat.Unit),
        })
      : undefined,
  }) as unknown as MetricDataQuery;
}

function dimensions(value: unknown): Dimension[] {
  if (!Array.isArray(value)) return [];
  return (value as JsonObject[]).map((d) => ({ Name: String(d.Name), Value: String(d.Value) }));
}

function number(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  return Number(value);
}

function flag(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  return value === true || value === 'true';
}

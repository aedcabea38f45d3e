import { cloudWatchErrors } from './cloudwatch-errors.js';

type Input = Record<string, unknown>;

const COMPARISON_OPERATORS = new Set([
  'GreaterThanOrEqualToThreshold',
  'GreaterThanThreshold',
  'LessThanThreshold',
  'LessThanOrEqualToThreshold',
  'LessThanLowerOrGreaterThanUpperThreshold',
  'LessThanLowerThreshold',
  'GreaterThanUpperThreshold',
]);
/** The operators that compare with an anomaly detection band (ThresholdMetricId) instead of a Threshold. */
const BAND_OPERATORS = new Set([
  'LessThanLowerOrGreaterThanUpperThreshold',
  'LessThanLowerThreshold',
  'GreaterThanUpperThreshold',
]);
const STATISTICS = new Set(['SampleCount', 'Average', 'Sum', 'Minimum', 'Maximum']);
const TREAT_MISSING_DATA = new Set(['breaching', 'notBreaching', 'ignore', 'missing']);
const SINGLE_METRIC_MEMBERS = [
  'MetricName',
  'Namespace',
  'Statistic',
  'ExtendedStatistic',
  'Dimensions',
  'Period',
  'Unit',
];
const WALL_CLOCK_PERIODS = new Set([60, 300, 3600, 86400, 604800]);
const ACTION_LISTS = ['OKActions', 'AlarmActions', 'InsufficientDataActions'];
const QUERY_ID = /^[a-z][a-zA-Z0-9_]*$/;

/** PutMetricAlarm's checks, in AWS's error codes and wording; the first problem found is refused. */
export function validateMetricAlarm(input: Input): void {
  const name = input.AlarmName;
  if (typeof name !== 'string' || name === '') throw cloudWatchErrors.missing('AlarmName');
  maxLength(input, 'AlarmName', 255);
  maxLength(input, 'AlarmDescription', 1024);
  for (const list of ACTION_LISTS) validateActions(input, list);
  if (input.TreatMissingData !== undefined && !TREAT_MISSING_DATA.has(String(input.TreatMissingData))) {
    throw cloudWatchErrors.validation(
      `Option ${String(input.TreatMissingData)} is not a valid option for parameter TreatMissingData`,
    );
  }
  validateEvaluationWindow(input);
  // A PromQL alarm (EvaluationCriteria) has no metric, operator or evaluation periods.
  if (input.EvaluationCriteria !== undefined) return;
  const periods = positiveInteger(input, 'EvaluationPeriods', true)!;
  const operator = input.ComparisonOperator;
  if (operator === undefined) throw cloudWatchErrors.missing('ComparisonOperator');
  if (!COMPARISON_OPERATORS.has(String(operator)))
    enumProblem('comparisonOperator', operator, COMPARISON_OPERATORS);
  const datapoints = positiveInteger(input, 'DatapointsToAlarm', false);
  if (datapoints !== undefined && datapoints > periods) {
    throw cloudWatchErrors.validation('DatapointsToAlarm must be less than or equal to EvaluationPeriods');
  }
  if (Array.isArray(input.Metrics) && input.Metrics.length > 0) validateMetrics(input, input.Metrics);
  else validateSingleMetric(input);
  const band = BAND_OPERATORS.has(String(operator));
  if (band && input.ThresholdMetricId === undefined) {
    throw cloudWatchErrors.validation(`ComparisonOperator ${String(operator)} requires ThresholdMetricId`);
  }
  if (!band && input.ThresholdMetricId === undefined && input.Threshold === undefined) {
    throw cloudWatchErrors.validation('Threshold must be specified for a static threshold alarm');
  }
  if (input.ThresholdMetricId !== undefined && input.Threshold !== undefined) {
    throw cloudWatchErrors.invalidParameterCombination(
      'Threshold and ThresholdMetricId cannot both be specified',
    );
  }
}

function validateSingleMetric(input: Input): void {
  if (input.MetricName === undefined) throw cloudWatchErrors.missing('MetricName');
  if (input.Namespace === undefined) throw cloudWatchErrors.missing('Namespace');
  if (input.Statistic !== undefined && input.ExtendedStatistic !== undefined) {
    throw cloudWatchErrors.invalidParameterCombination(
      'Statistic and ExtendedStatistic are mutually exclusive and you have specified both.',
    );
  }
  if (input.Statistic === undefined && input.ExtendedStatistic === undefined) {
    throw cloudWatchErrors.missing('Statistic');
  }
  if (input.Statistic !== undefined && !STATISTICS.has(String(input.Statistic))) {
    enumProblem('statistic', input.Statistic, STATISTICS);
  }
  const period = positiveInteger(input, 'Period', true)!;
  if (period > 30 ? period % 60 !== 0 : ![10, 20, 30].includes(period)) {
    throw cloudWatchErrors.validation('Period must be 10, 20, 30 or a multiple of 60');
  }
  if (isWallClock(input) && !WALL_CLOCK_PERIODS.has(period)) {
    throw cloudWatchErrors.validation(
      'A WallClockWindow needs a Period of 60, 300, 3600, 86400 or 604800 seconds',
    );
  }
}

function validateMetrics(input: Input, metrics: unknown[]): void {
  const given = SINGLE_METRIC_MEMBERS.filter((member) => input[member] !== undefined);
  if (given.length > 0) {
    throw cloudWatchErrors.invalidParameterCombination(
      `The parameters Metrics and ${given.join(', ')} are mutually exclusive and you have specified both.`,
    );
  }
  const ids = new Set<string>();
  let returning = 0;
  for (const query of metrics as Input[]) {
    const id = query?.Id;
    if (typeof id !== 'string' || !QUERY_ID.test(id)) {
      throw cloudWatchErrors.validation(
        `Invalid metrics list: the Id ${String(id)} must start with a lowercase letter and contain only letters, numbers and underscores`,
      );
    }
    if (ids.has(id)) throw cloudWatchErrors.validation(`Invalid metrics list: the Id ${id} is not unique`);
    ids.add(id);
    if ((query.Expression === undefined) === (query.MetricStat === undefined)) {
      throw cloudWatchErrors.validation(
        `Invalid metrics list: the query ${id} must have exactly one of Expression and MetricStat`,
      );
    }
    if (query.ReturnData !== false && query.ReturnData !== 'false') returning += 1;
  }
  // An anomaly detection alarm returns its metric and the band (ThresholdMetricId).
  const expected = input.ThresholdMetricId === undefined ? 1 : 2;
  if (returning !== expected) {
    throw cloudWatchErrors.validation(
      expected === 1
        ? 'Exactly one element of the metrics list should return data.'
        : 'Exactly two elements of the metrics list should return data: the metric and the ThresholdMetricId band.',
    );
  }
  if (input.ThresholdMetricId !== undefined && !ids.has(String(input.ThresholdMetricId))) {
    throw cloudWatchErrors.validation(
      `ThresholdMetricId ${String(input.ThresholdMetricId)} names no element of the metrics list`,
    );
  }
}

function validateEvaluationWindow(input: Input): void {
  const window = input.EvaluationWindow;
  if (window === undefined) return;
  const members = typeof window === 'object' && window !== null ? Object.keys(window) : [];
  if (members.length !== 1 || !['SlidingWindow', 'WallClockWindow'].includes(members[0]!)) {
    throw cloudWatchErrors.validation(
      'EvaluationWindow must set exactly one of SlidingWindow and WallClockWindow',
    );
  }
}

function isWallClock(input: Input): boolean {
  const window = input.EvaluationWindow;
  return typeof window === 'object' && window !== null && 'WallClockWindow' in window;
}

function validateActions(input: Input, member: string): void {
  const actions = input[member];
  if (actions === undefined) return;
  if (!Array.isArray(actions)) throw cloudWatchErrors.validation(`${member} must be a list of ARNs`);
  if (actions.length > 5) {
    throw cloudWatchErrors.validation(
      `1 validation error detected: Value at '${lowerFirst(member)}' failed to satisfy constraint: Member must have length less than or equal to 5`,
    );
  }
  for (const action of actions) {
    if (typeof action !== 'string' || !/^arn:[^:]+:[^:]+:/.test(action)) {
      throw cloudWatchErrors.validation(`Invalid arn syntax: ${String(action)}`);
    }
  }
}

function maxLength(input: Input, member: string, limit: number): void {
  const value = input[member];
  if (typeof value === 'string' && value.length > limit) {
    throw cloudWatchErrors.validation(
      `1 validation error detected: Value '${value}' at '${lowerFirst(member)}' failed to satisfy constraint: Member must have length less than or equal to ${limit}`,
    );
  }
}

/** A member that must be a whole number of at least 1 (undefined when optional and absent). */
function positiveInteger(input: Input, member: string, required: boolean): number | undefined {
  const value = input[member];
  if (value === undefined) {
    if (required) throw cloudWatchErrors.missing(member);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw cloudWatchErrors.validation(
      `1 validation error detected: Value '${String(value)}' at '${lowerFirst(member)}' failed to satisfy constraint: Member must have value greater than or equal to 1`,
    );
  }
  return value;
}

function enumProblem(member: string, value: unknown, allowed: ReadonlySet<string>): never {
  throw cloudWatchErrors.validation(
    `1 validation error detected: Value '${String(value)}' at '${member}' failed to satisfy constraint: Member must satisfy enum value set: [${[...allowed].join(', ')}]`,
  );
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

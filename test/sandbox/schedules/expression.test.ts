import { describe, expect, it } from 'vitest';
import {
  nextFireTime,
  parseScheduleExpression,
  ScheduleExpressionError,
} from '../../../src/sandbox/schedules/expression.js';

const at = (iso: string) => Date.parse(iso);
const next = (expression: string, after: string, options: { timeZone?: string; start?: string } = {}) => {
  const time = nextFireTime(parseScheduleExpression(expression), at(after), {
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.start ? { start: at(options.start) } : {}),
  });
  return time === undefined ? undefined : new Date(time).toISOString();
};

describe('the next time a schedule fires: one case per rule', () => {
  it.each<[string, string, string, { timeZone?: string; start?: string }, string | undefined]>([
    [
      'a rate fires one period after its start',
      'rate(5 minutes)',
      '2030-01-01T00:00:00Z',
      {},
      '2030-01-01T00:05:00.000Z',
    ],
    [
      'a rate keeps its phase',
      'rate(1 hour)',
      '2030-01-01T05:10:00Z',
      { start: '2030-01-01T00:30:00Z' },
      '2030-01-01T05:30:00.000Z',
    ],
    ['a rate of days', 'rate(2 days)', '2030-01-01T00:00:00Z', {}, '2030-01-03T00:00:00.000Z'],
    [
      'cron at a fixed minute and hour',
      'cron(0 2 * * ? *)',
      '2030-01-01T03:00:00Z',
      {},
      '2030-01-02T02:00:00.000Z',
    ],
    [
      'cron strictly after the given time',
      'cron(0 2 * * ? *)',
      '2030-01-01T02:00:00Z',
      {},
      '2030-01-02T02:00:00.000Z',
    ],
    ['cron steps', 'cron(0/15 * * * ? *)', '2030-01-01T00:16:00Z', {}, '2030-01-01T00:30:00.000Z'],
    [
      'cron lists and ranges',
      'cron(0 9-17/4,20 * * ? *)',
      '2030-01-01T13:30:00Z',
      {},
      '2030-01-01T17:00:00.000Z',
    ],
    [
      'cron day-of-week names (MON-FRI)',
      'cron(0 8 ? * MON-FRI *)',
      '2030-01-04T09:00:00Z',
      {},
      '2030-01-07T08:00:00.000Z',
    ],
    [
      'cron day-of-week numbers (1 is Sunday)',
      'cron(0 8 ? * 1 *)',
      '2030-01-01T00:00:00Z',
      {},
      '2030-01-06T08:00:00.000Z',
    ],
    ['cron month names', 'cron(0 0 1 JUN ? *)', '2030-01-01T00:00:00Z', {}, '2030-06-01T00:00:00.000Z'],
    [
      'cron the last day of the month (L)',
      'cron(0 0 L * ? *)',
      '2030-02-01T00:00:00Z',
      {},
      '2030-02-28T00:00:00.000Z',
    ],
    [
      'cron the last weekday (LW)',
      'cron(0 0 LW * ? *)',
      '2030-08-01T00:00:00Z',
      {},
      '2030-08-30T00:00:00.000Z',
    ],
    [
      'cron the nearest weekday (15W, a Saturday)',
      'cron(0 0 15W * ? *)',
      '2030-06-01T00:00:00Z',
      {},
      '2030-06-14T00:00:00.000Z',
    ],
    [
      'cron the last Friday (6L)',
      'cron(0 0 ? * 6L *)',
      '2030-01-01T00:00:00Z',
      {},
      '2030-01-25T00:00:00.000Z',
    ],
    [
      'cron the second Tuesday (3#2)',
      'cron(0 0 ? * 3#2 *)',
      '2030-01-01T00:00:00Z',
      {},
      '2030-01-08T00:00:00.000Z',
    ],
    ['cron a year field', 'cron(0 0 1 1 ? 2032)', '2030-01-01T00:00:00Z', {}, '2032-01-01T00:00:00.000Z'],
    ['cron with every year past', 'cron(0 0 1 1 ? 2020)', '2030-01-01T00:00:00Z', {}, undefined],
    [
      'cron in a time zone',
      'cron(0 2 * * ? *)',
      '2030-01-01T00:00:00Z',
      { timeZone: 'America/New_York' },
      '2030-01-01T07:00:00.000Z',
    ],
    [
      'cron in a time zone across summer time',
      'cron(0 2 * * ? *)',
      '2030-07-01T00:00:00Z',
      { timeZone: 'America/New_York' },
      '2030-07-01T06:00:00.000Z',
    ],
    [
      'cron in an hour spring-forward skips is skipped that day',
      'cron(30 2 * * ? *)',
      '2030-03-10T05:00:00Z',
      { timeZone: 'America/New_York' },
      '2030-03-11T06:30:00.000Z',
    ],
    [
      'cron in an hour fall-back repeats fires once',
      'cron(30 1 * * ? *)',
      '2030-11-03T05:31:00Z',
      { timeZone: 'America/New_York' },
      '2030-11-04T06:30:00.000Z',
    ],
    [
      'at a one-time in UTC',
      'at(2030-05-01T12:00:00)',
      '2030-01-01T00:00:00Z',
      {},
      '2030-05-01T12:00:00.000Z',
    ],
    [
      'at a one-time in a time zone',
      'at(2030-05-01T12:00:00)',
      '2030-01-01T00:00:00Z',
      { timeZone: 'Asia/Tokyo' },
      '2030-05-01T03:00:00.000Z',
    ],
    ['at a time already past', 'at(2029-05-01T12:00:00)', '2030-01-01T00:00:00Z', {}, undefined],
  ])('%s', (_rule, expression, after, options, expected) => {
    expect(next(expression, after, options)).toBe(expected);
  });
});

describe('schedule expressions refused', () => {
  it.each([
    ['every(5 minutes)', 'not rate(...)'],
    ['rate(0 minutes)', 'positive'],
    ['rate(5 minute)', 'plural'],
    ['rate(1 hours)', 'singular'],
    ['cron(0 2 * * *)', 'six fields'],
    ['cron(0 2 * * MON *)', "one of day-of-month and day-of-week must be '?'"],
    ['cron(61 2 * * ? *)', "'61'"],
    ['cron(0 2 ? * 9 *)', "'9'"],
  ])('%s', (expression, reason) => {
    expect(() => parseScheduleExpression(expression)).toThrow(ScheduleExpressionError);
    expect(() => parseScheduleExpression(expression)).toThrow(reason);
  });
});

import { localFields, localToUtc, type LocalTime } from './time-zone.js';

export type { LocalTime } from './time-zone.js';

/**
 * Schedule expressions as EventBridge rules and EventBridge Scheduler take them:
 * `rate(5 minutes)`, `cron(0 2 * * ? *)` (minutes hours day-of-month month day-of-week
 * year, with `, - * / ? L W #`), and Scheduler's one-time `at(2030-01-01T02:00:00)`.
 */
export type ScheduleExpression =
  { kind: 'rate'; everyMs: number } | { kind: 'cron'; fields: CronFields } | { kind: 'at'; local: LocalTime };

interface CronFields {
  minutes: Set<number>;
  hours: Set<number>;
  months: Set<number>;
  years: Set<number> | undefined;
  dayOfMonth: DayRule;
  dayOfWeek: DayRule;
}

/** `?` (any, as the other field decides), a set, `L`, `LW`, `nW`, `dL` (last weekday d), `d#n`. */
type DayRule =
  | { kind: 'any' }
  | { kind: 'set'; values: Set<number> }
  | { kind: 'last'; offset: number }
  | { kind: 'lastWeekday' }
  | { kind: 'nearestWeekday'; day: number }
  | { kind: 'lastOfWeekday'; weekday: number }
  | { kind: 'nthWeekday'; weekday: number; nth: number };

export class ScheduleExpressionError extends Error {}

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export function parseScheduleExpression(text: string): ScheduleExpression {
  const rate = /^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$/.exec(text.trim());
  if (rate) {
    const value = Number(rate[1]);
    const unit = rate[2]!.replace(/s$/, '');
    if (value < 1) throw new ScheduleExpressionError(`${text}: the rate must be a positive number`);
    if ((value === 1) !== !rate[2]!.endsWith('s')) {
      throw new ScheduleExpressionError(`${text}: use the singular unit for 1 and the plural for more`);
    }
    return { kind: 'rate', everyMs: value * UNIT_MS[unit]! };
  }
  const at = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/.exec(text.trim());
  if (at) {
    const [year, month, day, hour, minute, second] = at.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return { kind: 'at', local: { year, month, day, hour, minute, second } };
  }
  const cron = /^cron\((.*)\)$/.exec(text.trim());
  if (cron) return { kind: 'cron', fields: parseCron(cron[1]!.trim().split(/\s+/), text) };
  throw new ScheduleExpressionError(`${text}: not rate(...), cron(...) or at(...)`);
}

function parseCron(parts: string[], text: string): CronFields {
  if (parts.length !== 6) throw new ScheduleExpressionError(`${text}: cron takes six fields`);
  const [minutes, hours, dom, months, dow, years] = parts as [string, string, string, string, string, string];
  if ((dom === '?') === (dow === '?')) {
    throw new ScheduleExpressionError(`${text}: exactly one of day-of-month and day-of-week must be '?'`);
  }
  const fail = (field: string): never => {
    throw new ScheduleExpressionError(`${text}: the field '${field}' is not valid`);
  };
  return {
    minutes: values(minutes, 0, 59, [], fail),
    hours: values(hours, 0, 23, [], fail),
    months: values(months, 1, 12, MONTHS, fail),
    years: years === '*' ? undefined : values(years, 1970, 2199, [], fail),
    dayOfMonth: dayOfMonth(dom, fail),
    dayOfWeek: dayOfWeek(dow, fail),
  };
}

function values(
  field: string,
  min: number,
  max: number,
  names: string[],
  fail: (f: string) => never,
): Set<number> {
  const result = new Set<number>();
  const read = (token: string): number => {
    const named = names.indexOf(token.toUpperCase());
    const value = named >= 0 ? named + min : /^\d+$/.test(token) ? Number(token) : NaN;
    if (!(value >= min && value <= max)) fail(field);
    return value;
  };
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) fail(field);
    let low: number;
    let high: number;
    if (range === '*') [low, high] = [min, max];
    else if (range.includes('-')) {
      const [a, b] = range.split('-') as [string, string];
      [low, high] = [read(a), read(b)];
    } else {
      low = read(range);
      high = stepText === undefined ? low : max;
    }
    if (low > high) fail(field);
    for (let v = low; v <= high; v += step) result.add(v);
  }
  return result;
}

function dayOfMonth(field: string, fail: (f: string) => never): DayRule {
  if (field === '?') return { kind: 'any' };
  if (field === 'L') return { kind: 'last', offset: 0 };
  if (field === 'LW') return { kind: 'lastWeekday' };
  const nearest = /^(\d{1,2})W$/.exec(field);
  if (nearest) return { kind: 'nearestWeekday', day: Number(nearest[1]) };
  return { kind: 'set', values: values(field, 1, 31, [], fail) };
}

/** AWS numbers days 1 (SUN) to 7 (SAT). */
function dayOfWeek(field: string, fail: (f: string) => never): DayRule {
  if (field === '?') return { kind: 'any' };
  const day = (token: string): number => {
    const named = DAYS.indexOf(token.toUpperCase());
    const value = named >= 0 ? named + 1 : Number(token);
    if (!(value >= 1 && value <= 7)) fail(field);
    return value;
  };
  const last = /^(\w+)L$/.exec(field);
  if (last) return { kind: 'lastOfWeekday', weekday: day(last[1]!) };
  const nth = /^(\w+)#([1-5])$/.exec(field);
  if (nth) return { kind: 'nthWeekday', weekday: day(nth[1]!), nth: Number(nth[2]) };
  return { kind: 'set', values: values(field, 1, 7, DAYS, fail) };
}

/**
 * The first time after `after` (epoch ms) the schedule fires, in the time zone (IANA name)
 * its fields are read in; undefined when it never fires again. `start` anchors a rate (its
 * first fire is one period after it).
 */
export function nextFireTime(
  expression: ScheduleExpression,
  after: number,
  options: { timeZone?: string; start?: number } = {},
): number | undefined {
  const timeZone = options.timeZone ?? 'UTC';
  switch (expression.kind) {
    case 'rate': {
      const start = options.start ?? after;
      const periods = Math.floor((after - start) / expression.everyMs) + 1;
      return start + Math.max(periods, 1) * expression.everyMs;
    }
    case 'at': {
      const time = localToUtc(expression.local, timeZone);
      return time > after ? time : undefined;
    }
    case 'cron':
      return nextCron(expression.fields, after, timeZone);
  }
}

function nextCron(fields: CronFields, after: number, timeZone: string): number | undefined {
  let t = Math.floor(after / 60_000) * 60_000 + 60_000;
  let previous = -Infinity;
  for (let guard = 0; guard < 20_000; guard += 1) {
    // Every step moves forward, even where a time zone's gap would map a jump backwards.
    t = Math.max(t, previous + 60_000);
    previous = t;
    const local = localFields(t, timeZone);
    if (fields.years && ![...fields.years].some((year) => year >= local.year)) return undefined;
    const at = (l: Partial<LocalTime>) => localToUtc({ ...local, second: 0, ...l }, timeZone);
    if (fields.years && !fields.years.has(local.year)) {
      t = at({ year: local.year + 1, month: 1, day: 1, hour: 0, minute: 0 });
    } else if (!fields.months.has(local.month)) {
      t =
        local.month === 12
          ? at({ year: local.year + 1, month: 1, day: 1, hour: 0, minute: 0 })
          : at({ month: local.month + 1, day: 1, hour: 0, minute: 0 });
    } else if (!dayMatches(fields, local)) {
      t = nextDay(local, timeZone);
    } else if (!fields.hours.has(local.hour)) {
      t = at({ minute: 0 }) + 3_600_000;
    } else if (!fields.minutes.has(local.minute) || at({}) !== t) {
      // A wall-clock time the zone repeats (fall back) fires once, at its first occurrence.
      t += 60_000;
    } else return t;
  }
  return undefined;
}

function nextDay(local: LocalTime & { weekday: number }, timeZone: string): number {
  const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
  return localToUtc(
    {
      year: next.getUTCFullYear(),
      month: next.getUTCMonth() + 1,
      day: next.getUTCDate(),
      hour: 0,
      minute: 0,
      second: 0,
    },
    timeZone,
  );
}

function dayMatches(fields: CronFields, local: LocalTime & { weekday: number }): boolean {
  const rule = fields.dayOfMonth.kind === 'any' ? fields.dayOfWeek : fields.dayOfMonth;
  const lastDay = new Date(Date.UTC(local.year, local.month, 0)).getUTCDate();
  const weekdayOf = (day: number) => new Date(Date.UTC(local.year, local.month - 1, day)).getUTCDay() + 1;
  switch (rule.kind) {
    case 'any':
      return true;
    case 'set':
      return rule.values.has(rule === fields.dayOfWeek ? local.weekday : local.day);
    case 'last':
      return local.day === lastDay - rule.offset;
    case 'lastWeekday': {
      let day = lastDay;
      while ([1, 7].includes(weekdayOf(day))) day -= 1;
      return local.day === day;
    }
    case 'nearestWeekday': {
      const target = Math.min(rule.day, lastDay);
      const weekday = weekdayOf(target);
      let day = target;
      if (weekday === 7) day = target === 1 ? target + 2 : target - 1;
      else if (weekday === 1) day = target === lastDay ? target - 2 : target + 1;
      return local.day === day;
    }
    case 'lastOfWeekday':
      return local.weekday === rule.weekday && local.day + 7 > lastDay;
    case 'nthWeekday':
      return local.weekday === rule.weekday && Math.ceil(local.day / 7) === rule.nth;
  }
}

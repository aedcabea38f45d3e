/** A wall-clock time, in whatever time zone reads it. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether the machine's time zone data knows the IANA name (`Europe/Paris`). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock fields of an instant in a time zone; weekday 1 (Sunday) to 7. */
export function localFields(time: number, timeZone: string): LocalTime & { weekday: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(time)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday!) + 1,
  };
}

/**
 * The instant a wall-clock time names in a time zone. A time the zone skips (spring
 * forward) lands after the gap; one it repeats (fall back) is its first occurrence.
 */
export function localToUtc(local: LocalTime, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const offsetAt = (time: number): number => {
    const fields = localFields(time, timeZone);
    return (
      Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second) - time
    );
  };
  const first = asUtc - offsetAt(asUtc);
  const candidates = [first, asUtc - offsetAt(first)];
  const exact = candidates.filter((time) => {
    const fields = localFields(time, timeZone);
    return fields.hour === local.hour && fields.minute === local.minute && fields.day === local.day;
  });
  return exact.length > 0 ? Math.min(...exact) : Math.max(...candidates);
}

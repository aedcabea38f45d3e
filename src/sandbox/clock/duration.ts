const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const ISO =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const SHORT = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;

/**
 * A duration in milliseconds from a number of milliseconds, an ISO 8601 duration (`PT25H`,
 * `P1DT2H`) or units run together (`90s`, `1d2h`, `500ms`); undefined when it is none of them.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const iso = ISO.exec(text);
  if (iso && text !== 'P' && !text.endsWith('T')) {
    const [weeks, days, hours, minutes, seconds] = iso.slice(1).map((part) => Number(part ?? 0));
    return Math.round(
      weeks! * UNIT_MS.w! +
        days! * UNIT_MS.d! +
        hours! * UNIT_MS.h! +
        minutes! * UNIT_MS.m! +
        seconds! * 1000,
    );
  }
  SHORT.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = SHORT.exec(text); match; match = SHORT.exec(text)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = SHORT.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? Math.round(total) : undefined;
}

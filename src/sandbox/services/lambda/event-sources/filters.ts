import { matchesPattern, parsePattern, type Pattern } from '../../../patterns/event-pattern.js';

export interface FilterCriteria {
  Filters?: Array<{ Pattern?: string }>;
}

/**
 * Lambda's filter criteria over a batch: a record is kept when any filter matches it (all
 * are kept when there are none). An SQS body, or a Kinesis record's data, that is JSON is
 * matched as the object it holds (`body`, `data`); otherwise as its text.
 */
export function keptByFilters<T extends Record<string, unknown>>(
  records: readonly T[],
  criteria: FilterCriteria | undefined,
): { kept: T[]; dropped: T[] } {
  const patterns: Pattern[] = (criteria?.Filters ?? []).map((filter) => parsePattern(filter.Pattern ?? '{}'));
  if (patterns.length === 0) return { kept: [...records], dropped: [] };
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const record of records) {
    const view = filterView(record);
    (patterns.some((pattern) => matchesPattern(pattern, view)) ? kept : dropped).push(record);
  }
  return { kept, dropped };
}

function filterView(record: Record<string, unknown>): Record<string, unknown> {
  if (typeof record.body === 'string') return { ...record, body: jsonOrText(record.body) };
  const kinesis = record.kinesis as { data?: string } | undefined;
  if (typeof kinesis?.data === 'string') {
    return { ...record, data: jsonOrText(Buffer.from(kinesis.data, 'base64').toString('utf8')) };
  }
  return record;
}

function jsonOrText(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : text;
  } catch {
    return text;
  }
}

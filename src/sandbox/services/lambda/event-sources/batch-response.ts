/**
 * What a function answered for a batch under ReportBatchItemFailures: the identifiers it
 * reports failed (a message id, or a stream record's sequence number), or `all` when the
 * answer cannot be read that way (Lambda then counts the whole batch as failed). An empty
 * or absent list means every item succeeded.
 */
export function failedItems(payload: string, known: readonly string[]): Set<string> | 'all' {
  let response: unknown;
  try {
    response = JSON.parse(payload);
  } catch {
    return 'all';
  }
  if (response === null || typeof response !== 'object') return new Set();
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return 'all';
  const ids = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || id === '' || !known.includes(id)) return 'all';
    ids.add(id);
  }
  return ids;
}

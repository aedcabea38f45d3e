/**
 * What `drift --revert` sends: the applied properties, except that a numeric 0 log-group
 * retention, cdkd's own read-back spelling of "never expire" (taken in by `drift --accept`),
 * is sent as no retention, which removes a retention set since (spec 002, "Log group retention").
 */
export function revertProperties(type: string, applied: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'AWS::Logs::LogGroup' || applied.RetentionInDays !== 0) return applied;
  const sent = { ...applied };
  delete sent.RetentionInDays;
  return sent;
}

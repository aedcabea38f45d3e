import { typeTime, type LatencyProfile } from '../latency-profiles/index.js';

/** What the ETA reads of a stored stack event (state's StackEvent has these fields). */
export interface PastEvent {
  status: string;
  timestamp: string;
  startedAt?: string;
  resourceType?: string;
  action?: string;
}

/** `AWS::SQS::Queue create`: the key of a type's durations per action. */
export function durationKey(type: string, action: string): string {
  return `${type} ${action}`;
}

/**
 * The median time each type took per action in the stack's past operations that completed
 * (a failure's time says nothing of the next success), keyed by `durationKey`.
 */
export function pastDurations(events: readonly PastEvent[]): Record<string, number> {
  const samples = new Map<string, number[]>();
  for (const event of events) {
    if (!event.status.endsWith('_COMPLETE') || !event.resourceType || !event.action || !event.startedAt)
      continue;
    const ms = Date.parse(event.timestamp) - Date.parse(event.startedAt);
    if (!Number.isFinite(ms) || ms < 0) continue;
    const key = durationKey(event.resourceType, event.action);
    samples.set(key, [...(samples.get(key) ?? []), ms]);
  }
  return Object.fromEntries([...samples].map(([key, list]) => [key, median(list)]));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The profile's action for a deploy action: a replacement makes a new copy, a no-op takes nothing. */
const PROFILE_ACTION: Record<string, 'create' | 'update' | 'delete' | undefined> = {
  create: 'create',
  update: 'update',
  replace: 'create',
  delete: 'delete',
};

/**
 * What an operation is expected to take, or undefined when nothing says: the stack's own
 * past median for its type and action; else the profile's figure (a deploy to AWS); else,
 * with no profile (another endpoint, such as the sandbox, whose times no profile describes),
 * the stack's past median for the action over every type. A no-op or a retained delete
 * takes nothing.
 */
export function expectedDuration(
  type: string,
  action: string,
  past: Readonly<Record<string, number>>,
  profile: LatencyProfile | undefined,
): number | undefined {
  const own = past[durationKey(type, action)];
  if (own !== undefined) return own;
  const profileAction = PROFILE_ACTION[action];
  if (!profileAction) return 0;
  if (profile) return typeTime(profile, type, profileAction);
  const sameAction = Object.entries(past)
    .filter(([key]) => key.endsWith(` ${action}`))
    .map(([, ms]) => ms);
  return sameAction.length > 0 ? median(sameAction) : undefined;
}

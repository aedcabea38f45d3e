import { CdkdError } from '../errors.js';
import type { LockDocument, FoundLock, StackRef } from '../state/index.js';
import type { Session } from './session.js';

/** What holds a stack's lock, as read before asking. */
export async function readLock(session: Session, stack: StackRef): Promise<FoundLock> {
  return (await session.stateBackend()).locks.find(stack);
}

/** The holder as a person judges it: owner, operation, age (since its last renewal) and expiry. */
export function describeHolder(holder: LockDocument, now: Date): string {
  const operation = holder.operation ?? 'an unnamed operation';
  const renewed = Date.parse(holder.timestamp);
  const age = Number.isNaN(renewed) ? 'at an unreadable time' : `${minutes(now.getTime() - renewed)} ago`;
  const expiresAt = holder.expiresAt ? Date.parse(holder.expiresAt) : Number.NaN;
  const expiry = Number.isNaN(expiresAt)
    ? 'no readable expiry (treated as expired)'
    : expiresAt <= now.getTime()
      ? `expired ${minutes(now.getTime() - expiresAt)} ago`
      : `expires in ${minutes(expiresAt - now.getTime())}`;
  return `owner ${holder.owner}, operation ${operation}, taken or last renewed ${age}, ${expiry}`;
}

/**
 * The pid of a holder that is a process still running on this host, from the owner
 * `user@host:pid` cdkd writes; undefined for another host, a process that is gone, or an
 * owner in another shape (nothing can be checked, so the person decides).
 */
export function runningLocalHolder(
  owner: string,
  thisHost: string,
  isRunning: (pid: number) => boolean,
): number | undefined {
  const match = /@([^@]+):(\d+)$/.exec(owner);
  if (!match || match[1] !== thisHost) return undefined;
  const pid = Number(match[2]);
  return pid > 0 && isRunning(pid) ? pid : undefined;
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function refuseRunningHolder(stack: StackRef, pid: number, holder: string): CdkdError {
  return new CdkdError(
    'LOCK_HOLDER_RUNNING',
    `The lock on stack ${stack.stackName} (${stack.region}) is held by a cdkd process still running on this host (pid ${pid}; ${holder}).`,
    {
      hint: `Let it finish, or stop it (its first SIGINT releases the lock); pass --force to delete the lock anyway.`,
    },
  );
}

/** Deletes the lock shown to the person, refusing when it changed since (renewed, released, replaced). */
export async function deleteShownLock(session: Session, stack: StackRef, etag: string): Promise<void> {
  const deleted = await (await session.stateBackend()).locks.deleteIfUnchanged(stack, etag);
  if (deleted) return;
  throw new CdkdError(
    'LOCK_CHANGED',
    `The lock on stack ${stack.stackName} (${stack.region}) changed after it was shown (its holder renewed, released or replaced it); nothing was deleted.`,
    { hint: `Run cdkd force-unlock ${stack.stackName} again to see the current holder.` },
  );
}

function minutes(ms: number): string {
  const total = Math.max(0, Math.round(ms / 60_000));
  return total < 1 ? 'less than a minute' : total === 1 ? '1 minute' : `${total} minutes`;
}

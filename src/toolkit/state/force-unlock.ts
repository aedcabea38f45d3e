import { CdkdError } from '../../errors.js';
import { processRunning } from '../../process-running.js';
import { ioQuestion } from '../../messages/index.js';
import type { LockDocument, FoundLock, StackRef } from '../../state/index.js';
import type { ToolkitIo } from '../io.js';
import type { Session } from '../session/session.js';

/** What `cdkd force-unlock` came to: nothing to delete, or the lock deleted and whose it was. */
export type ForceUnlockOutcome =
  { kind: 'not-locked' } | { kind: 'deleted'; holder?: { owner: string; operation?: string } };

export interface ForceUnlockOptions {
  /** Delete it even when its holder is a cdkd process still running on this host. */
  force: boolean;
  thisHost: string;
  now: Date;
  isRunning?(pid: number): boolean;
}

/**
 * Reads a stack's lock, refuses a holder still running on this host (unless forced), shows the
 * holder and asks (CDKD_Q9100), then deletes exactly the lock that was shown.
 */
export async function forceUnlock(
  session: Session,
  stack: StackRef,
  options: ForceUnlockOptions,
  { io, command }: ToolkitIo,
): Promise<ForceUnlockOutcome> {
  const found = await readLock(session, stack);
  if (found.kind === 'absent') return { kind: 'not-locked' };
  const holder = found.kind === 'readable' ? describeHolder(found.document, options.now) : undefined;
  if (found.kind === 'readable' && !options.force) {
    const pid = runningLocalHolder(
      found.document.owner,
      options.thisHost,
      options.isRunning ?? processRunning,
    );
    if (pid !== undefined) throw refuseRunningHolder(stack, pid, holder ?? '');
  }
  const name = `${stack.stackName} (${stack.region})`;
  const question = ioQuestion(
    command,
    'CDKD_Q9100',
    `Delete the lock on stack ${name}? Only do this if no cdkd process is working on it.`,
    { stackName: stack.stackName, region: stack.region, holder: holder ?? 'a lock.json that cannot be read' },
    false,
  );
  if (!(await io.ask(question))) throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
  await deleteShownLock(session, stack, found.etag);
  if (found.kind === 'unreadable') return { kind: 'deleted' };
  const { owner, operation } = found.document;
  return { kind: 'deleted', holder: operation === undefined ? { owner } : { owner, operation } };
}

/** What holds a stack's lock, as read before asking. */
async function readLock(session: Session, stack: StackRef): Promise<FoundLock> {
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

function refuseRunningHolder(stack: StackRef, pid: number, holder: string): CdkdError {
  return new CdkdError(
    'LOCK_HOLDER_RUNNING',
    `The lock on stack ${stack.stackName} (${stack.region}) is held by a cdkd process still running on this host (pid ${pid}; ${holder}).`,
    {
      hint: `Let it finish, or stop it (its first SIGINT releases the lock); pass --force to delete the lock anyway.`,
    },
  );
}

/** Deletes the lock shown to the person, refusing when it changed since (renewed, released, replaced). */
async function deleteShownLock(session: Session, stack: StackRef, etag: string): Promise<void> {
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

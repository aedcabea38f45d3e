import { hostname, userInfo } from 'node:os';
import { CdkdError, messageOf } from '../errors.js';
import { throwIfInterrupted, unlessInterrupted } from '../interrupted.js';
import { parseDocument } from './documents/document-reader.js';
import { LOCK_DOCUMENT, type LockDocument } from './documents/lock-document.js';
import { stackStateKeys } from './keys.js';
import {
  LOCK_RENEW_INTERVAL_MS,
  LOCK_TTL_MS,
  RETRY_SCHEDULE,
  nextLockStep,
  type LockObservation,
  type LockSchedule,
} from './lock-schedule.js';
import { PreconditionFailed, type S3Objects } from './s3-objects.js';
import type { StackRef } from './state-store.js';

export interface LockClock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export interface AcquireOptions {
  operation: string;
  schedule?: LockSchedule;
  /** Called when a renewal finds the lock is no longer ours (taken over or force-unlocked). */
  onLost?: (message: string) => void;
  /** An interrupt stops the wait for a held lock (spec 003, "Signals"). */
  signal?: AbortSignal;
}

export type FoundLock =
  | { kind: 'absent' }
  | { kind: 'unreadable'; etag: string }
  | { kind: 'readable'; document: LockDocument; etag: string };
type Found = FoundLock;

const systemClock: LockClock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function waitingFor(stack: StackRef): string {
  return `while waiting for the lock of stack ${stack.stackName}`;
}

export function defaultLockOwner(): string {
  return `${userInfo().username}@${hostname()}:${process.pid}`;
}

/** One writer per stack: `lock.json` created with If-None-Match, renewed and released with If-Match. */
export class LockManager {
  /** Locks this process holds now: what a force-quit releases without waiting for the work under them. */
  private readonly holding = new Set<HeldLock>();

  constructor(
    private readonly objects: S3Objects,
    private readonly prefix: string,
    private readonly owner: string = defaultLockOwner(),
    private readonly clock: LockClock = systemClock,
    private readonly renewIntervalMs: number = LOCK_RENEW_INTERVAL_MS,
  ) {}

  async acquire(stack: StackRef, options: AcquireOptions): Promise<HeldLock> {
    const schedule = options.schedule ?? RETRY_SCHEDULE;
    const key = this.key(stack);
    const budget = { retriesLeft: schedule.retries, extraLeft: schedule.extraAttempts };
    // What this call wrote: a write whose answer was lost lands, and the SDK's retry of it is
    // refused as if another writer held the lock.
    const sent: LockDocument[] = [];
    for (;;) {
      const document = this.newDocument(options.operation);
      sent.push(document);
      try {
        const etag = await this.objects.put(key, serialize(document), { ifNoneMatch: '*' });
        return this.held(stack, document, etag, options);
      } catch (error) {
        if (!(error instanceof PreconditionFailed)) throw error;
      }
      const found = await this.find(stack);
      if (found.kind === 'readable' && sent.some((mine) => sameLock(mine, found.document))) {
        return this.held(stack, found.document, found.etag, options);
      }
      const observation = observe(found, this.clock.now());
      const step = nextLockStep(observation, budget);
      if (step === 'take-over' && found.kind === 'readable') {
        const taken = await this.takeOver(stack, found.etag, options, sent);
        if (taken) return taken;
        budget.extraLeft = Math.max(0, budget.extraLeft - 1);
      } else if (step === 'retry-now') {
        budget.extraLeft -= 1;
      } else if (step === 'wait-and-retry') {
        budget.retriesLeft -= 1;
        throwIfInterrupted(options.signal, waitingFor(stack));
        await unlessInterrupted(this.clock.sleep(schedule.intervalMs), options.signal, waitingFor(stack));
      } else {
        throw lockHeldError(stack, found.kind === 'readable' ? found.document : undefined, this.clock.now());
      }
    }
  }

  /**
   * Runs `work` under the stack's lock and releases it however the work ends: the one shape
   * of every command that takes a lock. An interrupt before the work starts releases it at
   * once; a release that fails after the work failed is told in the work's error.
   */
  async withLock<T>(
    stack: StackRef,
    options: AcquireOptions,
    work: (lock: HeldLock) => Promise<T>,
  ): Promise<T> {
    const lock = await this.acquire(stack, options);
    try {
      throwIfInterrupted(options.signal, `before ${options.operation} started; nothing was changed`);
      return await work(lock);
    } catch (error) {
      throw await lock.releaseAfter(error);
    } finally {
      await lock.release();
    }
  }

  /**
   * Deletes the lock while it is still the one with `etag` (a release, or a force-unlock of
   * the lock it showed): false when it was renewed, released or replaced in between.
   */
  async deleteIfUnchanged(stack: StackRef, etag: string): Promise<boolean> {
    const found = await this.find(stack);
    if (found.kind === 'absent' || found.etag !== etag) return false;
    await this.objects.delete(this.key(stack));
    return true;
  }

  async find(stack: StackRef): Promise<Found> {
    const key = this.key(stack);
    const stored = await this.objects.get(key);
    if (!stored) return { kind: 'absent' };
    try {
      return {
        kind: 'readable',
        document: parseDocument(LOCK_DOCUMENT, this.objects.location(key), stored.text),
        etag: stored.etag,
      };
    } catch {
      return { kind: 'unreadable', etag: stored.etag };
    }
  }

  /** Rewrites an expired lock as ours, guarded on the ETag read, so two takers cannot both win. */
  private async takeOver(
    stack: StackRef,
    etag: string,
    options: AcquireOptions,
    sent: LockDocument[],
  ): Promise<HeldLock | undefined> {
    const document = this.newDocument(options.operation);
    sent.push(document);
    try {
      const newEtag = await this.objects.put(this.key(stack), serialize(document), { ifMatch: etag });
      return this.held(stack, document, newEtag, options);
    } catch (error) {
      if (error instanceof PreconditionFailed) return undefined;
      throw error;
    }
  }

  private held(stack: StackRef, document: LockDocument, etag: string, options: AcquireOptions): HeldLock {
    const lock = new HeldLock(this, stack, document, etag, options, this.renewIntervalMs, () =>
      this.holding.delete(lock),
    );
    this.holding.add(lock);
    return lock;
  }

  /** Releases every lock this process still holds (spec 003: destroy's second signal). */
  async releaseHeld(): Promise<void> {
    await Promise.allSettled([...this.holding].map((lock) => lock.release()));
  }

  newDocument(operation: string): LockDocument {
    const now = this.clock.now();
    return {
      version: 1,
      owner: this.owner,
      timestamp: now.toISOString(),
      expiresAt: new Date(now.getTime() + LOCK_TTL_MS).toISOString(),
      operation,
    };
  }

  /** @internal used by HeldLock */
  async rewrite(stack: StackRef, document: LockDocument, etag: string): Promise<string> {
    return this.objects.put(this.key(stack), serialize(document), { ifMatch: etag });
  }

  private key(stack: StackRef): string {
    return stackStateKeys(this.prefix, stack.stackName, stack.region).lock;
  }
}

/** A lock this process holds; renewed in the background until released. */
export class HeldLock {
  private timer: NodeJS.Timeout | undefined;
  private lost = false;

  constructor(
    private readonly manager: LockManager,
    readonly stack: StackRef,
    private current: LockDocument,
    private etag: string,
    private readonly options: AcquireOptions,
    renewIntervalMs: number,
    private readonly onReleased: () => void,
  ) {
    this.timer = setInterval(() => void this.renew().catch(() => undefined), renewIntervalMs);
    this.timer.unref();
  }

  get document(): LockDocument {
    return this.current;
  }

  get isLost(): boolean {
    return this.lost;
  }

  /** Moves expiresAt forward; a refused rewrite means the lock is no longer ours. */
  async renew(): Promise<void> {
    if (this.lost || !this.timer) return;
    const next = this.manager.newDocument(this.options.operation);
    try {
      this.etag = await this.manager.rewrite(this.stack, next, this.etag);
      this.current = next;
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      this.lost = true;
      this.stopRenewal();
      this.options.onLost?.(
        `The lock on stack ${this.stack.stackName} (${this.stack.region}) was taken over or cleared by someone else.`,
      );
    }
  }

  /**
   * Releases the lock after `failure` ended the work under it; returns the error to raise:
   * `failure`, told (when it is cdkd's own) that the lock is left if the release failed too.
   */
  async releaseAfter(failure: unknown): Promise<unknown> {
    try {
      await this.release();
      return failure;
    } catch (releaseError) {
      if (!(failure instanceof CdkdError)) return failure;
      const left = releaseError instanceof CdkdError ? releaseError : undefined;
      const note = `The lock could not be released either: ${left?.message ?? messageOf(releaseError)}${left?.hint ? ` ${left.hint}` : ''}`;
      return new CdkdError(failure.code, failure.message, {
        hint: failure.hint ? `${failure.hint} ${note}` : note,
        cause: failure.cause,
        exitCode: failure.exitCode,
      });
    }
  }

  async release(): Promise<void> {
    this.stopRenewal();
    this.onReleased();
    if (this.lost) return;
    this.lost = true;
    await this.manager.deleteIfUnchanged(this.stack, this.etag);
  }

  private stopRenewal(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The same record: the owner names this process, so a matching timestamp means this very write. */
function sameLock(a: LockDocument, b: LockDocument): boolean {
  return (
    a.owner === b.owner &&
    a.timestamp === b.timestamp &&
    a.expiresAt === b.expiresAt &&
    a.operation === b.operation
  );
}

function observe(found: Found, now: Date): LockObservation {
  if (found.kind === 'absent') return { kind: 'released' };
  if (found.kind === 'unreadable') return { kind: 'unreadable' };
  return isExpired(found.document, now) ? { kind: 'expired' } : { kind: 'held' };
}

/** A lock past expiresAt, or without one (a truncated record), is expired. */
export function isExpired(document: LockDocument, now: Date): boolean {
  if (!document.expiresAt) return true;
  const expiresAt = Date.parse(document.expiresAt);
  return Number.isNaN(expiresAt) || expiresAt <= now.getTime();
}

function serialize(document: LockDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function lockHeldError(stack: StackRef, holder: LockDocument | undefined, now: Date): CdkdError {
  const hint = `Wait for that run to finish. If no cdkd process holds the lock any more, clear it with: cdkd force-unlock ${stack.stackName} --region ${stack.region}`;
  if (!holder) {
    return new CdkdError(
      'LOCK_HELD',
      `Stack ${stack.stackName} (${stack.region}) is locked. No lock could be read after the last failed attempt.`,
      { hint },
    );
  }
  const operation = holder.operation ? ` for ${holder.operation}` : '';
  const minutes = holder.expiresAt
    ? Math.max(0, Math.ceil((Date.parse(holder.expiresAt) - now.getTime()) / 60_000))
    : 0;
  return new CdkdError(
    'LOCK_HELD',
    `Stack ${stack.stackName} (${stack.region}) is locked by ${holder.owner}${operation} (lock last written ${holder.timestamp}); it expires at ${holder.expiresAt}, in ${minutes} min.`,
    { hint },
  );
}

import { parseAnyStateKey } from '../../state/keys.js';
import { RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import type { StackRef } from '../../state/index.js';
import type { EngineContext } from '../engine-context.js';
import { rollbackStack } from '../journal/index.js';
import { keptEntries, lockVerdict, untrackedInJournal } from './scrub-rules.js';

/** Something a crashed run left in the state bucket. */
export type Leftover =
  | { kind: 'stale-lock'; ref: StackRef; holder: string }
  | { kind: 'held-lock'; ref: StackRef; holder: string; expiresAt: string }
  | { kind: 'unreadable-lock'; ref: StackRef }
  | { kind: 'journal'; ref: StackRef; hasState: boolean; crashed: boolean; untracked: string[] }
  | { kind: 'unreadable-journal'; ref: StackRef };

/**
 * `cdkd scrub`, looking: every lock under the prefix (stale, held or unreadable), and every
 * journal whose stack has no state, whose run never finished, or that names what no state
 * records. Reads only.
 */
export async function findLeftovers(engine: EngineContext, now: Date = new Date()): Promise<Leftover[]> {
  const { backend } = engine;
  const keys = await backend.objects.listKeys(`${backend.store.prefix.replace(/\/+$/, '')}/`);
  const refsOf = (file: string) =>
    keys.flatMap((key) => {
      const parsed = parseAnyStateKey(backend.store.prefix, key, file);
      return parsed && 'stackName' in parsed ? [parsed] : [];
    });
  const leftovers: Leftover[] = [];
  for (const ref of refsOf('lock.json')) {
    const found = await backend.locks.find(ref);
    if (found.kind === 'absent') continue;
    const document = found.kind === 'readable' ? found.document : undefined;
    const verdict = lockVerdict(document, now);
    if (verdict === 'unreadable' || !document) leftovers.push({ kind: 'unreadable-lock', ref });
    else if (verdict === 'stale') leftovers.push({ kind: 'stale-lock', ref, holder: document.owner });
    else
      leftovers.push({ kind: 'held-lock', ref, holder: document.owner, expiresAt: document.expiresAt ?? '' });
  }
  for (const ref of refsOf('rollback-journal.json')) {
    let journal: Awaited<ReturnType<typeof backend.journals.read>>;
    try {
      journal = await backend.journals.read(ref);
    } catch {
      leftovers.push({ kind: 'unreadable-journal', ref });
      continue;
    }
    if (!journal || journal.document.segments.length === 0) continue;
    const state = await backend.store.read(ref);
    const untracked = untrackedInJournal(journal.document, state?.document);
    // A segment still `running` is a run that ended without saying how: killed.
    const crashed = journal.document.segments.some((segment) => segment.status === 'running');
    if (!state || crashed || untracked.length > 0) {
      leftovers.push({ kind: 'journal', ref, hasState: !!state, crashed, untracked });
    }
  }
  return leftovers;
}

/** What cleaning one leftover came to. */
export type CleanOutcome =
  | { kind: 'cleaned' }
  /** The rollback's plan was declined: nothing changed. */
  | { kind: 'declined' }
  /** Settled, with warnings the rollback printed (cdkd events lists them). */
  | { kind: 'warned' }
  /** The journal keeps what the rollback could not settle, one line each (see `keptEntries`). */
  | { kind: 'unsettled'; entries: string[] }
  /** The rollback failed: its journal is kept for a re-run. */
  | { kind: 'failed' }
  /** Nothing scrub cleans (a held or unreadable lock, an unreadable journal). */
  | { kind: 'left' };

/**
 * `cdkd scrub`, cleaning one leftover: a stale lock is taken over and released (the lock
 * retried as spec 003 gives scrub); a journal is settled by `cdkd rollback`'s own replay,
 * which reads the cloud and deletes only what it proves the run made. What the journal
 * still holds afterwards is listed, never claimed cleaned.
 */
export async function cleanLeftover(
  engine: EngineContext,
  leftover: Leftover,
  input: { accountId: string; confirm(lines: string[]): Promise<boolean>; signal?: AbortSignal },
): Promise<CleanOutcome> {
  const { signal } = input;
  if (leftover.kind === 'stale-lock') {
    const lock = { operation: 'scrub', schedule: RETRY_SCHEDULE, ...(signal ? { signal } : {}) };
    await engine.backend.locks.withLock(leftover.ref, lock, async () => undefined);
    return { kind: 'cleaned' };
  }
  if (leftover.kind !== 'journal') return { kind: 'left' };
  const { stackName, region } = leftover.ref;
  const result = await rollbackStack(engine, {
    stack: {
      stateName: stackName,
      stackName: stackName.replaceAll('/', '-'),
      region,
      accountId: input.accountId,
      ...(stackName.includes('/') ? { isNested: true } : {}),
    },
    revertFailed: false,
    orphan: new Set(),
    force: false,
    confirm: input.confirm,
    ...(signal ? { signal } : {}),
  });
  if (!result.confirmed) return { kind: result.found ? 'declined' : 'cleaned' };
  if (result.exitCode === 1) return { kind: 'failed' };
  const journal = await engine.backend.journals.read(leftover.ref);
  const entries = journal ? keptEntries(journal.document) : [];
  if (entries.length > 0) return { kind: 'unsettled', entries };
  return { kind: result.exitCode === 0 ? 'cleaned' : 'warned' };
}

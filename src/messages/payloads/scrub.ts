import type { StackRef } from '../../state/index.js';

/** Something a crashed run left in the state bucket. */
export type Leftover =
  | { kind: 'stale-lock'; ref: StackRef; holder: string }
  | { kind: 'held-lock'; ref: StackRef; holder: string; expiresAt: string }
  | { kind: 'unreadable-lock'; ref: StackRef }
  | { kind: 'journal'; ref: StackRef; hasState: boolean; crashed: boolean; untracked: string[] }
  | { kind: 'unreadable-journal'; ref: StackRef };

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

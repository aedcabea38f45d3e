import type { Leftover } from '../../messages/index.js';

function name(leftover: Leftover): string {
  return `${leftover.ref.stackName} (${leftover.ref.region})`;
}

/** What a leftover is, as scrub's offers and its summary name it. */
export function describeLeftover(leftover: Leftover): string {
  switch (leftover.kind) {
    case 'stale-lock':
      return `${name(leftover)}: a lock past its expiry, written by ${leftover.holder}:`;
    case 'held-lock':
      return `${name(leftover)}: a lock held by ${leftover.holder} until ${leftover.expiresAt}:`;
    case 'unreadable-lock':
      return `${name(leftover)}: a lock file that is not a readable lock:`;
    case 'unreadable-journal':
      return `${name(leftover)}: a rollback journal that cannot be read:`;
    case 'journal': {
      const what = !leftover.hasState
        ? 'a rollback journal of a stack with no state'
        : leftover.crashed
          ? 'a rollback journal of a run that never finished'
          : 'a rollback journal naming what no state records';
      return `${name(leftover)}: ${what}${leftover.untracked.length > 0 ? ` (${leftover.untracked.join(', ')})` : ''}:`;
    }
  }
}

/** What cleaning a leftover does, as scrub's offer asks it. */
export function leftoverRemedy(leftover: Leftover): string {
  return leftover.kind === 'stale-lock' ? 'Delete it' : 'Settle it with cdkd rollback';
}

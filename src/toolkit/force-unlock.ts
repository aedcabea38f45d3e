import type { StackRef } from '../state/state-store.js';
import type { Session } from './session.js';

/** Deletes a stack's lock whatever holds it; says what was there. */
export async function forceUnlock(session: Session, stack: StackRef): Promise<string> {
  const backend = await session.stateBackend();
  const found = await backend.locks.forceUnlock(stack);
  const name = `${stack.stackName} (${stack.region})`;
  if (found.kind === 'absent') return `Stack ${name} was not locked.`;
  if (found.kind === 'unreadable') return `Deleted an unreadable lock on stack ${name}.`;
  const operation = found.document.operation ? ` for ${found.document.operation}` : '';
  return `Deleted the lock on stack ${name} held by ${found.document.owner}${operation}.`;
}

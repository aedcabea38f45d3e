import { unlessInterrupted } from '../../interrupted.js';
import type { Session } from './session.js';

/** The account and region, looked up with the credentials; an interrupt need not wait for them. */
export async function callerOf(
  session: Session,
  signal: AbortSignal | undefined,
): Promise<{ accountId: string; region: string }> {
  return unlessInterrupted(
    (async () => ({ accountId: await session.accountId(), region: await session.region() }))(),
    signal,
    'while looking up credentials; nothing was changed',
  );
}

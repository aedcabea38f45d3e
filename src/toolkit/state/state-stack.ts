import type { StackIdentity } from '../../engine/index.js';
import type { Session } from '../session/session.js';
import { chooseStackRegion } from './state-inspection.js';

/**
 * A stack as its state names it, for the commands that work without the app: the
 * region given, else the stack's only region in the bucket, else the default.
 */
export async function stateStackIdentity(
  session: Session,
  stackName: string,
  region: string | undefined,
): Promise<StackIdentity> {
  const backend = await session.stateBackend();
  // A nested stack by its path, `Parent~Child` (or `Parent/Child`), as cdkd rollback takes it.
  const stateName = stackName.replaceAll('~', '/');
  return {
    stateName,
    stackName: stateName.replaceAll('/', '-'),
    region: region ?? chooseStackRegion(stateName, await backend.store.list(), await session.region()),
    accountId: await session.accountId(),
  };
}

import type { StackIdentity } from '../engine/engine-context.js';
import type { Session } from './session.js';
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
  return {
    stateName: stackName,
    stackName,
    region: region ?? chooseStackRegion(stackName, await backend.store.list(), await session.region()),
    accountId: await session.accountId(),
  };
}

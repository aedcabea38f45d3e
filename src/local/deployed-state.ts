import type { StackArtifact } from '../assembly/index.js';
import { CdkdError } from '../errors.js';
import type { StateBackend } from '../state/index.js';

type StackState = NonNullable<Awaited<ReturnType<StateBackend['store']['read']>>>;

/**
 * cdkd's state of a stack as deployed, with the region it is deployed in (an
 * environment-agnostic stack's: the caller's); no state when the stack is not deployed, or
 * nothing is (no state bucket: the account was never bootstrapped).
 */
export async function deployedStackState(
  backend: () => Promise<StateBackend>,
  stack: StackArtifact,
  callerRegion: string,
): Promise<{ region: string; state?: StackState }> {
  const region = stack.environment.region === 'unknown-region' ? callerRegion : stack.environment.region;
  let opened: StateBackend;
  try {
    opened = await backend();
  } catch (error) {
    if (error instanceof CdkdError && error.code === 'STATE_BUCKET_NOT_FOUND') return { region };
    throw error;
  }
  const state = await opened.store.read({ stackName: stack.stackName, region });
  return state ? { region, state } : { region };
}

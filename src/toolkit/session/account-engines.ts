import type { Engine } from '../../engine/index.js';

/** The engine of an account (and a region of it, for a session not opened yet). */
export type EngineFor = (accountId: string, region: string) => Promise<Engine>;

/**
 * One engine over several accounts: each stack goes to the engine of the account it lives in
 * (its own credentials, state bucket, locks and journal), chosen by the stack's `accountId`.
 * The leftovers `cdkd scrub` finds and cleans are the home account's bucket's.
 */
export function accountRoutedEngine(
  engineFor: EngineFor,
  home: { accountId: string; region: string },
): Engine {
  const of = (stack: { accountId: string; region: string }) => engineFor(stack.accountId, stack.region);
  const homeEngine = () => engineFor(home.accountId, home.region);
  return {
    deploy: async (request, options) => (await of(request)).deploy(request, options),
    releaseHeld: async (request, deployed, options) =>
      (await of(request)).releaseHeld(request, deployed, options),
    destroy: async (stack, options) => (await of(stack)).destroy(stack, options),
    rollback: async (request) => (await of(request.stack)).rollback(request),
    dropFailed: async (request) => (await of(request.stack)).dropFailed(request),
    refreshObserved: async (stack, options) => (await of(stack)).refreshObserved(stack, options),
    drift: async (stack, options) => (await of(stack)).drift(stack, options),
    findLeftovers: async () => (await homeEngine()).findLeftovers(),
    cleanLeftover: async (leftover, input) => (await homeEngine()).cleanLeftover(leftover, input),
    importCandidates: async (request) => (await of(request)).importCandidates(request),
    importResources: async (request, choices, options) =>
      (await of(request)).importResources(request, choices, options),
  };
}

import { createEngine, type Engine } from '../../engine/engine.js';
import { CloudControlProvider } from '../../providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../../providers/registry.js';
import { withRetry } from '../../providers/retry.js';
import { registerSdkProviders } from '../../providers/sdk-providers.js';
import { accountRoutedEngine } from './account-engines.js';
import type { AccountRoute, Session } from './session.js';
import { warn, type ToolkitIo } from '../io.js';

/** The registry every command uses: SDK providers where cdkd has them, Cloud Control for the rest. */
export function defaultRegistry(): ProviderRegistry {
  return registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
}

/** Provider calls retried on spec 003's schedules; the give-up line goes to the user. */
export function providerRetry(warn: (message: string) => void) {
  return <T>(label: string, call: () => Promise<T>): Promise<T> =>
    withRetry(() => call(), { label, onGiveUp: (line) => warn(line) });
}

/**
 * The engine a command works with: the session's state backend, the default providers, their
 * retry. With `routes` (the accounts and regions of the stacks it acts on), a stack in another
 * account goes to an engine of its own acting through that account's deploy role; every such
 * role is assumed here, so one that refuses stops the command before anything changes.
 */
export async function openEngine(
  session: Session,
  input: ToolkitIo & { regions: Iterable<string>; routes?: readonly AccountRoute[] },
): Promise<Engine> {
  const open = async (account: Session, regions: Iterable<string>) =>
    createEngine({
      backend: await account.stateBackend(),
      clients: account.clients,
      registry: defaultRegistry(),
      io: input.io,
      command: input.command,
      retry: providerRetry((message) => warn(input, message)),
      regions: [...new Set(regions)],
    });
  const routes = input.routes ?? [];
  const home = routes.length > 0 ? await session.accountId() : undefined;
  const away = routes.filter((route) => route.accountId !== home);
  if (home === undefined || away.length === 0) return open(session, input.regions);
  const sessions = new Map<string, Session>();
  for (const route of away) {
    if (!sessions.has(route.accountId)) sessions.set(route.accountId, await session.forAccount(route));
  }
  const regionsOf = (accountId: string) =>
    accountId === home
      ? input.regions
      : routes.filter((route) => route.accountId === accountId).map((route) => route.region);
  const engines = new Map<string, Promise<Engine>>();
  return accountRoutedEngine(
    (accountId, region) => {
      let engine = engines.get(accountId);
      if (!engine) {
        engine = (async () => {
          const account =
            accountId === home
              ? session
              : (sessions.get(accountId) ?? (await session.forAccount({ accountId, region })));
          return open(account, regionsOf(accountId));
        })();
        engines.set(accountId, engine);
      }
      return engine;
    },
    { accountId: home, region: await session.region() },
  );
}

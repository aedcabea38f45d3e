import { createEngine, type Engine } from '../../engine/engine.js';
import { CloudControlProvider } from '../../providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../../providers/registry.js';
import { withRetry } from '../../providers/retry.js';
import { registerSdkProviders } from '../../providers/sdk-providers.js';
import type { Session } from './session.js';
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

/** The engine a command works with: the session's state backend, the default providers, their retry. */
export async function openEngine(
  session: Session,
  input: ToolkitIo & { regions: Iterable<string> },
): Promise<Engine> {
  return createEngine({
    backend: await session.stateBackend(),
    clients: session.clients,
    registry: defaultRegistry(),
    io: input.io,
    command: input.command,
    retry: providerRetry((message) => warn(input, message)),
    regions: [...new Set(input.regions)],
  });
}

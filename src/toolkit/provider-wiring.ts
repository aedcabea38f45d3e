import { CloudControlProvider } from '../providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../providers/registry.js';
import { withRetry } from '../providers/retry.js';
import { registerSdkProviders } from '../providers/sdk-providers.js';

/** The registry every command uses: SDK providers where cdkd has them, Cloud Control for the rest. */
export function defaultRegistry(): ProviderRegistry {
  return registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
}

/** Provider calls retried on spec 003's schedules; the give-up line goes to the user. */
export function providerRetry(warn: (message: string) => void) {
  return <T>(label: string, call: () => Promise<T>): Promise<T> =>
    withRetry(() => call(), { label, onGiveUp: (line) => warn(line) });
}

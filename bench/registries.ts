// The two routes the benches compare (SDK providers where cdkd has them, else Cloud Control;
// Cloud Control only), their waits and retries on one scaled clock.
import { CloudControlProvider } from '../src/providers/cloudcontrol/provider.js';
import type { Clock } from '../src/providers/clock.js';
import { TABLE, TableProvider } from '../src/providers/dynamodb/table.js';
import { registerLambda } from '../src/providers/lambda/index.js';
import { ProviderRegistry } from '../src/providers/registry.js';
import { withRetry } from '../src/providers/retry.js';
import { registerSdkProviders } from '../src/providers/sdk-providers.js';

/** `defaultRegistry()` with the clock given to every provider that waits (Lambda, DynamoDB). */
export function sdkRegistry(clock: Clock): ProviderRegistry {
  const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider({ clock })));
  registerLambda(registry, { clock });
  return registry.registerSdk(TABLE, new TableProvider({ clock }));
}

/** Every type through Cloud Control. */
export function ccRegistry(clock: Clock): ProviderRegistry {
  return new ProviderRegistry(new CloudControlProvider({ clock }));
}

/** `providerRetry` with its sleeps (IAM propagation re-probes, throttling) on the same clock. */
export function scaledRetry(clock: Clock) {
  return <T>(label: string, call: () => Promise<T>): Promise<T> =>
    withRetry(() => call(), { label, clock, onGiveUp: (line) => console.error(`warning: ${line}`) });
}

import type { CallerEnvironment, ContextLookups } from '../assembly/index.js';
import type { AwsClients } from '../aws/index.js';
import { CONTEXT_PROVIDER_NAMES } from './provider-names.js';

/**
 * `awsContextLookups`, with the look-ups and their AWS SDK clients (EC2, Route 53, ...) loaded
 * only when synthesis reports missing context: an app whose context is cached loads none.
 */
export function lazyAwsContextLookups(
  clients: AwsClients,
  caller: () => Promise<CallerEnvironment>,
): ContextLookups {
  let lookups: Promise<ContextLookups> | undefined;
  return {
    supports: (provider) => (CONTEXT_PROVIDER_NAMES as readonly string[]).includes(provider),
    async lookup(provider, query) {
      lookups ??= import('./index.js').then(({ awsContextLookups }) => awsContextLookups(clients, caller));
      return (await lookups).lookup(provider, query);
    },
  };
}

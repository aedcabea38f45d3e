import type { CallerEnvironment, ContextLookups } from '../assembly/index.js';
import type { AwsClients } from '../aws/client-factory.js';

/** The context providers of @aws-cdk/cloud-assembly-schema cdkd answers (all but `plugin`: cdkd loads no CDK CLI plugins). */
export const CONTEXT_PROVIDER_NAMES = [
  'availability-zones',
  'hosted-zone',
  'vpc-provider',
  'ssm',
  'ami',
  'security-group',
  'load-balancer',
  'load-balancer-listener',
  'key-provider',
  'endpoint-service-availability-zones',
  'cc-api-provider',
] as const;

export type ContextProviderName = (typeof CONTEXT_PROVIDER_NAMES)[number];

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

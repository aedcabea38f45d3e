import type { CallerEnvironment, ContextLookups } from '../assembly/index.js';
import type { AwsClients } from '../aws/index.js';
import { ami } from './ami.js';
import { availabilityZones } from './availability-zones.js';
import { ccApi } from './cc-api.js';
import { endpointServiceAvailabilityZones } from './endpoint-service-azs.js';
import { hostedZone } from './hosted-zones.js';
import { kmsKey } from './keys.js';
import type { ContextProviderName } from './provider-names.js';
import { loadBalancer, loadBalancerListener } from './load-balancers.js';
import type { Provider } from './provider.js';
import { clientsForQuery } from './query-clients.js';
import { securityGroup } from './security-groups.js';
import { ssmParameter } from './ssm-parameters.js';
import { vpc } from './vpcs.js';

/** One per name in CONTEXT_PROVIDER_NAMES. */
const PROVIDERS: Readonly<Record<ContextProviderName, Provider>> = {
  'availability-zones': availabilityZones,
  'hosted-zone': hostedZone,
  'vpc-provider': vpc,
  ssm: ssmParameter,
  ami,
  'security-group': securityGroup,
  'load-balancer': loadBalancer,
  'load-balancer-listener': loadBalancerListener,
  'key-provider': kmsKey,
  'endpoint-service-availability-zones': endpointServiceAvailabilityZones,
  'cc-api-provider': ccApi,
};

/** Context lookups through the AWS SDK, each in the query's region and account. */
export function awsContextLookups(
  clients: AwsClients,
  caller: () => Promise<CallerEnvironment>,
): ContextLookups {
  return {
    supports: (provider) => Object.hasOwn(PROVIDERS, provider),
    async lookup(provider, query) {
      return PROVIDERS[provider as ContextProviderName](await clientsForQuery(clients, caller, query), query);
    },
  };
}

import { SandboxError } from '../../errors.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { restJsonApiModule, writableOf, type ApiCall } from '../api-module.js';

/**
 * OpenSearch Service and its older Elasticsearch API (both sign as `es`) over REST-JSON:
 * a domain's configuration updates, applied to the domain's model in Cloud Control's store.
 * Only the access policies are modelled; the domain is Active at once.
 */
export const createOpenSearchService: ServiceModuleFactory = async (context) => {
  const updateConfig =
    (type: string) =>
    async ({ labels, input, region, accountId }: ApiCall) => {
      const store = context.resources.resolve(type)!;
      const entry = store
        .list(region, accountId)
        .find((candidate) => candidate.model.DomainName === labels.DomainName);
      if (!entry)
        throw new SandboxError('ResourceNotFoundException', `Domain not found: ${labels.DomainName}`, 409);
      const desired = writableOf(type, entry.model);
      if (typeof input.AccessPolicies === 'string') {
        try {
          desired.AccessPolicies = JSON.parse(input.AccessPolicies);
        } catch {
          throw new SandboxError('ValidationException', 'Access policy is not valid JSON.', 400);
        }
      }
      await store.update(entry.identifier, desired, region, accountId);
      const now = Date.now() / 1000;
      const status = {
        CreationDate: now,
        UpdateDate: now,
        UpdateVersion: 1,
        State: 'Active',
        PendingDeletion: false,
      };
      return {
        DomainConfig: {
          AccessPolicies: { Options: JSON.stringify(desired.AccessPolicies ?? ''), Status: status },
        },
      };
    };
  return restJsonApiModule({
    name: 'es',
    routes: [
      {
        method: 'POST',
        path: '/2015-01-01/es/domain/{DomainName}/config',
        operation: 'UpdateElasticsearchDomainConfig',
      },
      {
        method: 'POST',
        path: '/2021-01-01/opensearch/domain/{DomainName}/config',
        operation: 'UpdateDomainConfig',
      },
    ],
    handlers: {
      UpdateElasticsearchDomainConfig: updateConfig('AWS::Elasticsearch::Domain'),
      UpdateDomainConfig: updateConfig('AWS::OpenSearchService::Domain'),
    },
  });
};

import { SandboxError } from '../../errors.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { restJsonApiModule } from '../api-module.js';

const VIRTUAL_CLUSTER = 'AWS::EMRContainers::VirtualCluster';

/** EMR on EKS virtual clusters over REST-JSON, read from Cloud Control's store for their type. */
export const createEmrContainersService: ServiceModuleFactory = async (context) =>
  restJsonApiModule({
    name: 'emr-containers',
    routes: [{ method: 'GET', path: '/virtualclusters/{id}', operation: 'DescribeVirtualCluster' }],
    handlers: {
      DescribeVirtualCluster: ({ labels, region, accountId }) => {
        const model = context.resources.resolve(VIRTUAL_CLUSTER)!.read(labels.id!, region, accountId);
        if (!model)
          throw new SandboxError(
            'ResourceNotFoundException',
            `Virtual cluster ${labels.id} doesn't exist.`,
            400,
          );
        const provider = (model.ContainerProvider ?? {}) as {
          Id?: string;
          Type?: string;
          Info?: { EksInfo?: { Namespace?: string } };
        };
        return {
          virtualCluster: {
            id: labels.id,
            name: model.Name,
            arn: `arn:aws:emr-containers:${region}:${accountId}:/virtualclusters/${labels.id}`,
            state: 'RUNNING',
            containerProvider: {
              type: provider.Type ?? 'EKS',
              id: provider.Id,
              info: { eksInfo: { namespace: provider.Info?.EksInfo?.Namespace } },
            },
            tags: Object.fromEntries(
              ((model.Tags as Array<{ Key: string; Value: string }>) ?? []).map((tag) => [
                tag.Key,
                tag.Value,
              ]),
            ),
          },
        };
      },
    },
  });

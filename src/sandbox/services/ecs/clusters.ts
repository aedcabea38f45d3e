import { fromEcsShape, toEcsShape } from '../../../aws/ecs-shape.js';
import type { ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { ApiCall } from '../api-module.js';
import {
  apiTags,
  CLUSTER_TYPE,
  clusterArn,
  clusterName,
  handlerOf,
  modelTags,
  omit,
  requireCluster,
  stringMember,
  writableOf,
} from './call.js';
import { ecsErrors } from './errors.js';
import type { ServiceDeployments } from './deployments.js';

/** What CreateCluster and UpdateCluster take besides the name, in Cloud Control's names. */
const SETTABLE = [
  'settings',
  'configuration',
  'capacityProviders',
  'defaultCapacityProviderStrategy',
  'serviceConnectDefaults',
];

/**
 * CreateCluster, UpdateCluster, UpdateClusterSettings, DescribeClusters and DeleteCluster on
 * Cloud Control's AWS::ECS::Cluster models. CreateCluster under a name an active cluster holds
 * answers that cluster, as ECS does.
 */
export function clusterHandlers(context: SandboxContext, deployments: ServiceDeployments) {
  const clusters = () => handlerOf(context, CLUSTER_TYPE);
  const render = (call: ApiCall, name: string, model: ResourceModel) => {
    const services = deployments.activeIn(call.region, call.accountId, name);
    return {
      clusterArn: clusterArn(call, name),
      clusterName: name,
      status: 'ACTIVE',
      registeredContainerInstancesCount: 0,
      runningTasksCount: 0,
      pendingTasksCount: 0,
      activeServicesCount: services,
      statistics: [],
      tags: apiTags(model.Tags),
      ...toEcsShape(withoutNameAndTags(model), 'cluster'),
      settings: toEcsShape(model, 'cluster').settings ?? [{ name: 'containerInsights', value: 'disabled' }],
    };
  };
  return {
    CreateCluster: async (call: ApiCall) => {
      const name = stringMember(call.input, 'clusterName') ?? 'default';
      if (!/^[A-Za-z0-9_-]{1,255}$/.test(name)) {
        throw ecsErrors.invalidParameter(
          'Cluster name must contain only letters (uppercase and lowercase), numbers, hyphens and underscores, up to 255 characters.',
        );
      }
      const existing = clusters().read(name, call.region, call.accountId);
      if (existing) return { cluster: render(call, name, existing) };
      const desired: ResourceModel = { ...desiredOf(call.input), ClusterName: name };
      const tags = modelTags(call.input.tags);
      if (tags) desired.Tags = tags;
      const made = await clusters().create(desired, call.region, call.accountId);
      return { cluster: render(call, name, made.model) };
    },
    DescribeClusters: (call: ApiCall) => {
      const named = Array.isArray(call.input.clusters) ? call.input.clusters.map(String) : ['default'];
      const found = [];
      const failures = [];
      for (const given of named) {
        const name = clusterName(given);
        const model = clusters().read(name, call.region, call.accountId);
        if (model) found.push(render(call, name, model));
        else failures.push({ arn: clusterArn(call, name), reason: 'MISSING' });
      }
      return { clusters: found, failures };
    },
    UpdateCluster: async (call: ApiCall) => {
      const name = requireCluster(context, call);
      const model = clusters().read(name, call.region, call.accountId)!;
      const next = await clusters().update(
        name,
        { ...writableOf(CLUSTER_TYPE, model), ...desiredOf(call.input) },
        call.region,
        call.accountId,
      );
      return { cluster: render(call, name, next) };
    },
    UpdateClusterSettings: async (call: ApiCall) => {
      const name = requireCluster(context, call);
      const model = clusters().read(name, call.region, call.accountId)!;
      const next = await clusters().update(
        name,
        { ...writableOf(CLUSTER_TYPE, model), ...desiredOf({ settings: call.input.settings }) },
        call.region,
        call.accountId,
      );
      return { cluster: render(call, name, next) };
    },
    DeleteCluster: async (call: ApiCall) => {
      const name = requireCluster(context, call);
      if (
        deployments.activeIn(call.region, call.accountId, name) > 0 ||
        deployments.drainingIn(call.region, call.accountId, name)
      ) {
        throw ecsErrors.clusterContainsServices();
      }
      const model = clusters().read(name, call.region, call.accountId)!;
      await clusters().delete(name, call.region, call.accountId);
      return { cluster: { ...render(call, name, model), status: 'INACTIVE' } };
    },
  };
}

/** The settable members of a CreateCluster/UpdateCluster input as the model's properties. */
function desiredOf(input: Record<string, unknown>): ResourceModel {
  const given = Object.fromEntries(
    SETTABLE.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]),
  );
  return fromEcsShape(given, 'cluster');
}

function withoutNameAndTags(model: ResourceModel): ResourceModel {
  return omit(model, ['ClusterName', 'Tags', 'Arn']);
}

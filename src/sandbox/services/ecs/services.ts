import { fromEcsShape, toEcsShape } from '../../../aws/ecs-shape.js';
import type { ResourceEntry, ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { ApiCall } from '../api-module.js';
import {
  apiTags,
  clusterArn,
  omit,
  handlerOf,
  modelTags,
  requireCluster,
  SERVICE_TYPE,
  stringMember,
  TASK_DEFINITION_TYPE,
  writableOf,
} from './call.js';
import type { ServiceDeployments } from './deployments.js';
import { ecsErrors } from './errors.js';

/** What CreateService takes, as ECS names it (tags apart). */
const CREATED = [
  'serviceName',
  'taskDefinition',
  'desiredCount',
  'launchType',
  'platformVersion',
  'loadBalancers',
  'networkConfiguration',
  'deploymentConfiguration',
  'deploymentController',
  'capacityProviderStrategy',
  'placementConstraints',
  'placementStrategy',
  'schedulingStrategy',
  'serviceRegistries',
  'healthCheckGracePeriodSeconds',
  'enableECSManagedTags',
  'enableExecuteCommand',
  'propagateTags',
  'role',
  'serviceConnectConfiguration',
  'volumeConfigurations',
  'availabilityZoneRebalancing',
];

/** What UpdateService may change (the rest is fixed at create). */
const UPDATABLE = CREATED.filter(
  (key) => !['serviceName', 'launchType', 'deploymentController', 'schedulingStrategy', 'role'].includes(key),
);

/** Changes that start a new deployment (a desired count alone only scales the current one). */
const REDEPLOYING = [
  'taskDefinition',
  'networkConfiguration',
  'platformVersion',
  'loadBalancers',
  'serviceRegistries',
  'capacityProviderStrategy',
];

/**
 * CreateService, UpdateService, DeleteService and DescribeServices on Cloud Control's
 * AWS::ECS::Service models, with each service's deployments moving as ECS's do (deployments.ts).
 */
export function serviceHandlers(context: SandboxContext, deployments: ServiceDeployments) {
  const store = () => handlerOf(context, SERVICE_TYPE);

  const render = (call: ApiCall, entry: ResourceEntry) => {
    const { model } = entry;
    const arn = String(model.ServiceArn);
    const desiredCount = Number(model.DesiredCount ?? 1);
    const taskDefinition = taskDefinitionArn(call, model.TaskDefinition);
    const rendered = deployments.render(arn, taskDefinition, desiredCount);
    const rest = omit(model, ['Tags', 'ServiceArn', 'Name', 'Cluster']);
    return {
      deploymentController: { type: 'ECS' },
      ...toEcsShape(rest, 'service'),
      serviceArn: arn,
      serviceName: String(model.ServiceName),
      clusterArn: clusterArn(call, requireClusterName(model.Cluster)),
      status: 'ACTIVE',
      desiredCount,
      runningCount: rendered.reduce((sum, deployment) => sum + Number(deployment.runningCount), 0),
      pendingCount: rendered.reduce((sum, deployment) => sum + Number(deployment.pendingCount), 0),
      taskDefinition,
      launchType: model.LaunchType ?? (model.CapacityProviderStrategy ? undefined : 'EC2'),
      schedulingStrategy: model.SchedulingStrategy ?? 'REPLICA',
      deployments: rendered,
      events: [],
      tags: apiTags(model.Tags),
    };
  };

  /** The service named in the call's cluster; ServiceNotFoundException when it is not there. */
  const find = (call: ApiCall, cluster: string, named: unknown): ResourceEntry | undefined => {
    const name = String(named ?? '').replace(/^arn:[^:]+:ecs:[^:]+:\d{12}:service\/(?:[^/]+\/)?/, '');
    return store()
      .list(call.region, call.accountId)
      .find(
        (entry) => requireClusterName(entry.model.Cluster) === cluster && entry.model.ServiceName === name,
      );
  };
  const deletedArn = (call: ApiCall, cluster: string, named: unknown) => {
    const name = String(named ?? '').replace(/^arn:[^:]+:ecs:[^:]+:\d{12}:service\/(?:[^/]+\/)?/, '');
    return `arn:aws:ecs:${call.region}:${call.accountId}:service/${cluster}/${name}`;
  };

  return {
    CreateService: async (call: ApiCall) => {
      const cluster = requireCluster(context, call);
      const name = stringMember(call.input, 'serviceName');
      if (!name) throw ecsErrors.invalidParameter('serviceName can not be blank.');
      if (find(call, cluster, name))
        throw ecsErrors.invalidParameter('Creation of service was not idempotent.');
      // An EXTERNAL deployment controller's service takes its task definition from its task sets.
      const external =
        (call.input.deploymentController as { type?: string } | undefined)?.type === 'EXTERNAL';
      const taskDefinition: ResourceModel =
        external && call.input.taskDefinition === undefined
          ? {}
          : requireTaskDefinition(context, call, call.input.taskDefinition);
      const awsvpc = taskDefinition.NetworkMode === 'awsvpc';
      if (awsvpc && call.input.networkConfiguration === undefined) {
        throw ecsErrors.invalidParameter(
          "Network Configuration must be provided when networkMode 'awsvpc' is specified.",
        );
      }
      const desiredCount = Number(
        call.input.desiredCount ?? (call.input.schedulingStrategy === 'DAEMON' ? 0 : 0),
      );
      if (!Number.isInteger(desiredCount) || desiredCount < 0) {
        throw ecsErrors.invalidParameter('desiredCount must be a non-negative integer.');
      }
      const given = pick(call.input, CREATED);
      const desired: ResourceModel = {
        ...fromEcsShape(given, 'service'),
        Cluster: cluster,
        ...(taskDefinition.TaskDefinitionArn !== undefined && {
          TaskDefinition: taskDefinition.TaskDefinitionArn,
        }),
        DesiredCount: desiredCount,
      };
      const tags = modelTags(call.input.tags);
      if (tags) desired.Tags = tags;
      const made = await store().create(desired, call.region, call.accountId);
      const arn = String(made.model.ServiceArn);
      deployments.forget(arn);
      deployments.start(arn, String(taskDefinition.TaskDefinitionArn ?? ''), desiredCount, 'create');
      return { service: render(call, made) };
    },
    UpdateService: async (call: ApiCall) => {
      const cluster = requireCluster(context, call);
      const entry = find(call, cluster, call.input.service);
      if (!entry) {
        if (deployments.deleted(deletedArn(call, cluster, call.input.service)))
          throw ecsErrors.serviceNotActive();
        throw ecsErrors.serviceNotFound();
      }
      const changes = pick(call.input, UPDATABLE);
      if (changes.taskDefinition !== undefined) {
        changes.taskDefinition = String(
          requireTaskDefinition(context, call, changes.taskDefinition).TaskDefinitionArn,
        );
      }
      const before = entry.model;
      const model = await store().update(
        entry.identifier,
        { ...writableOf(SERVICE_TYPE, before), ...fromEcsShape(changes, 'service') },
        call.region,
        call.accountId,
      );
      const arn = String(model.ServiceArn);
      const taskDefinition = taskDefinitionArn(call, model.TaskDefinition);
      const redeploys =
        call.input.forceNewDeployment === true ||
        REDEPLOYING.some(
          (key) =>
            changes[key] !== undefined &&
            JSON.stringify(toEcsShape(before, 'service')[key]) !== JSON.stringify(changes[key]),
        );
      if (redeploys) deployments.start(arn, taskDefinition, Number(model.DesiredCount ?? 0), 'update');
      else deployments.scale(arn, taskDefinition, Number(model.DesiredCount ?? 0));
      return { service: render(call, { identifier: entry.identifier, model }) };
    },
    DeleteService: async (call: ApiCall) => {
      const cluster = requireCluster(context, call);
      const entry = find(call, cluster, call.input.service);
      if (!entry) {
        const gone = deployments.deleted(deletedArn(call, cluster, call.input.service));
        if (gone) throw ecsErrors.serviceNotActive();
        throw ecsErrors.serviceNotFound();
      }
      if (
        Number(entry.model.DesiredCount ?? 0) > 0 &&
        call.input.force !== true &&
        entry.model.SchedulingStrategy !== 'DAEMON'
      ) {
        throw ecsErrors.invalidParameter('The service cannot be stopped while it is scaled above 0.');
      }
      const last = render(call, entry);
      await store().delete(entry.identifier, call.region, call.accountId);
      const arn = String(entry.model.ServiceArn);
      deployments.drain(arn, cluster, call.region, call.accountId, last);
      return { service: deployments.deleted(arn) };
    },
    DescribeServices: (call: ApiCall) => {
      const cluster = requireCluster(context, call);
      const named = Array.isArray(call.input.services) ? call.input.services : [];
      if (named.length === 0) throw ecsErrors.invalidParameter('Services cannot be empty.');
      const services = [];
      const failures = [];
      for (const given of named) {
        const entry = find(call, cluster, given);
        const gone = entry ? undefined : deployments.deleted(deletedArn(call, cluster, given));
        if (entry) services.push(render(call, entry));
        else if (gone) services.push(gone);
        else failures.push({ arn: deletedArn(call, cluster, given), reason: 'MISSING' });
      }
      return { services, failures };
    },
  };
}

function requireClusterName(cluster: unknown): string {
  return String(cluster ?? 'default').replace(/^arn:[^:]+:ecs:[^:]+:\d{12}:cluster\//, '');
}

function pick(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}

/** A family, `family:revision` or ARN as the task definition's full ARN. */
function taskDefinitionArn(call: ApiCall, named: unknown): string {
  const text = String(named ?? '');
  return text.startsWith('arn:')
    ? text
    : `arn:aws:ecs:${call.region}:${call.accountId}:task-definition/${text}`;
}

/** The active task definition the call names (the latest revision of a bare family). */
function requireTaskDefinition(context: SandboxContext, call: ApiCall, named: unknown): ResourceModel {
  const text = String(named ?? '');
  const store = handlerOf(context, TASK_DEFINITION_TYPE);
  const direct = store.read(taskDefinitionArn(call, text), call.region, call.accountId);
  if (direct) return direct;
  const family = text.replace(/^arn:.*:task-definition\//, '');
  if (!family.includes(':')) {
    const latest = store
      .list(call.region, call.accountId)
      .filter((entry) => entry.model.Family === family)
      .sort((a, b) => Number(b.identifier.split(':').pop()) - Number(a.identifier.split(':').pop()))[0];
    if (latest) return latest.model;
  }
  throw ecsErrors.client('TaskDefinition not found.');
}

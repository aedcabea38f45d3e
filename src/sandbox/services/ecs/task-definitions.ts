import { fromEcsShape, toEcsShape } from '../../../aws/ecs-shape.js';
import type { ResourceEntry, ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { ApiCall } from '../api-module.js';
import { apiTags, handlerOf, modelTags, omit, stringMember, TASK_DEFINITION_TYPE } from './call.js';
import { ecsErrors } from './errors.js';

/** What RegisterTaskDefinition takes besides tags, as ECS names them. */
const REGISTERED = [
  'family',
  'containerDefinitions',
  'cpu',
  'memory',
  'networkMode',
  'requiresCompatibilities',
  'taskRoleArn',
  'executionRoleArn',
  'volumes',
  'placementConstraints',
  'ipcMode',
  'pidMode',
  'proxyConfiguration',
  'inferenceAccelerators',
  'ephemeralStorage',
  'runtimePlatform',
  'enableFaultInjection',
];

const REVISION = /^arn:[^:]+:ecs:[^:]+:\d{12}:task-definition\/([^:]+):(\d+)$/;

/**
 * RegisterTaskDefinition, DescribeTaskDefinition and DeregisterTaskDefinition on Cloud Control's
 * AWS::ECS::TaskDefinition models. A revision is immutable: each registration is a new one;
 * a deregistered revision leaves the store (Cloud Control no longer reads it) and stays
 * describable as INACTIVE, as ECS keeps it.
 */
export function taskDefinitionHandlers(context: SandboxContext) {
  const store = () => handlerOf(context, TASK_DEFINITION_TYPE);
  const inactive = new Map<string, ResourceModel>();

  const render = (model: ResourceModel, status = 'ACTIVE') => {
    const arn = String(model.TaskDefinitionArn);
    const revision = Number(REVISION.exec(arn)?.[2] ?? 1);
    const rest = omit(model, ['Tags', 'TaskDefinitionArn']);
    const requires = Array.isArray(model.RequiresCompatibilities) ? model.RequiresCompatibilities : [];
    return {
      ...toEcsShape(rest, 'taskDefinition'),
      taskDefinitionArn: arn,
      revision,
      status,
      compatibilities: ['EC2', ...requires.filter((kind) => kind !== 'EC2')],
    };
  };

  /** The family's revisions in the store, the highest first. */
  const revisionsOf = (call: ApiCall, family: string): ResourceEntry[] =>
    store()
      .list(call.region, call.accountId)
      .filter((entry) => entry.model.Family === family)
      .sort((a, b) => revisionOf(b.identifier) - revisionOf(a.identifier));

  /** `family`, `family:revision` or an ARN → the model, its status; undefined when ECS knows none. */
  const find = (call: ApiCall, named: string): { model: ResourceModel; status: string } | undefined => {
    const match = REVISION.exec(named);
    const [family, revision] = match ? [match[1]!, match[2]] : named.split(':');
    if (revision === undefined) {
      const latest = revisionsOf(call, family!)[0];
      return latest && { model: latest.model, status: 'ACTIVE' };
    }
    const arn = `arn:aws:ecs:${call.region}:${call.accountId}:task-definition/${family}:${revision}`;
    const model = store().read(arn, call.region, call.accountId);
    if (model) return { model, status: 'ACTIVE' };
    const gone = inactive.get(arn);
    return gone && { model: gone, status: 'INACTIVE' };
  };

  return {
    RegisterTaskDefinition: async (call: ApiCall) => {
      const family = stringMember(call.input, 'family');
      if (!family) throw ecsErrors.client('Family is required.');
      if (!/^[A-Za-z0-9_-]{1,255}$/.test(family)) {
        throw ecsErrors.client(
          'Family contains invalid characters: up to 255 letters (uppercase and lowercase), numbers, hyphens, and underscores are allowed.',
        );
      }
      const containers = call.input.containerDefinitions;
      if (!Array.isArray(containers) || containers.length === 0) {
        throw ecsErrors.client('Container list cannot be empty.');
      }
      refuseIncompatibleFargate(call.input);
      const given = Object.fromEntries(
        REGISTERED.filter((key) => call.input[key] !== undefined).map((key) => [key, call.input[key]]),
      );
      const desired: ResourceModel = fromEcsShape(given, 'taskDefinition');
      const tags = modelTags(call.input.tags);
      if (tags) desired.Tags = tags;
      const made = await store().create(desired, call.region, call.accountId);
      return { taskDefinition: render(made.model), tags: apiTags(made.model.Tags) };
    },
    DescribeTaskDefinition: (call: ApiCall) => {
      const named = stringMember(call.input, 'taskDefinition');
      if (!named) throw ecsErrors.invalidParameter('taskDefinition can not be blank.');
      const found = find(call, named);
      if (!found) throw ecsErrors.client('Unable to describe task definition.');
      const include = Array.isArray(call.input.include) ? call.input.include : [];
      return {
        taskDefinition: render(found.model, found.status),
        ...(include.includes('TAGS') && { tags: apiTags(found.model.Tags) }),
      };
    },
    ListTaskDefinitions: (call: ApiCall) => {
      const prefix = stringMember(call.input, 'familyPrefix');
      const status = stringMember(call.input, 'status') ?? 'ACTIVE';
      const active = store()
        .list(call.region, call.accountId)
        .map((entry) => entry.model);
      const models = status === 'ACTIVE' ? active : [...inactive.values()];
      return {
        taskDefinitionArns: models
          .filter((model) => prefix === undefined || model.Family === prefix)
          .map((model) => String(model.TaskDefinitionArn))
          .sort(),
      };
    },
    DeregisterTaskDefinition: async (call: ApiCall) => {
      const named = stringMember(call.input, 'taskDefinition');
      if (!named || !named.includes(':')) {
        throw ecsErrors.client('Revision must be specified: family:revision or the full ARN.');
      }
      const found = find(call, named);
      if (!found) throw ecsErrors.client('The specified task definition does not exist.');
      const arn = String(found.model.TaskDefinitionArn);
      if (found.status === 'ACTIVE') {
        await store().delete(arn, call.region, call.accountId);
        inactive.set(arn, found.model);
      }
      return { taskDefinition: render(found.model, 'INACTIVE') };
    },
  };
}

function revisionOf(arn: string): number {
  return Number(REVISION.exec(arn)?.[2] ?? 0);
}

/** Fargate's own rules on a task definition, refused as ECS refuses them. */
function refuseIncompatibleFargate(input: Record<string, unknown>): void {
  const requires = Array.isArray(input.requiresCompatibilities) ? input.requiresCompatibilities : [];
  if (!requires.includes('FARGATE')) return;
  if (input.networkMode !== 'awsvpc') {
    throw ecsErrors.client('Fargate only supports network mode ‘awsvpc’.');
  }
  if (input.cpu === undefined || input.memory === undefined) {
    throw ecsErrors.client("Fargate requires that 'cpu' be defined at the task level.");
  }
}

import {
  CreateServiceCommand,
  DeleteServiceCommand,
  DescribeServicesCommand,
  UpdateServiceCommand,
  type ECSClient,
  type Service,
} from '@aws-sdk/client-ecs';
import { awsErrorCode, fromEcsShape, toEcsShape } from '../../aws/index.js';
import type { Clock } from '../clock.js';
import { givenOrTokenName, nameFromToken, TOKEN_TAG, type NameRules } from '../physical-names.js';
import { pollUntil } from '../poll-until.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { changedKeys, pick } from '../property-values.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { ecs, ecsTags, templateTags, updateEcsTags } from './client.js';

export const SERVICE_TYPE = 'AWS::ECS::Service';

const SERVICE_NAME_RULES: NameRules = { maxLength: 255, extraCharacters: '-_' };

/** As long as CloudFormation waits for a service to stabilize (3 hours is its own limit; cdkd stops sooner). */
const STABLE_DEADLINE_MS = 60 * 60_000;

/** What CreateService sends besides the cluster, name and tags; UpdateService takes the updatable ones. */
const SENT = [
  'TaskDefinition',
  'DesiredCount',
  'LaunchType',
  'PlatformVersion',
  'LoadBalancers',
  'NetworkConfiguration',
  'DeploymentConfiguration',
  'DeploymentController',
  'CapacityProviderStrategy',
  'PlacementConstraints',
  'PlacementStrategies',
  'SchedulingStrategy',
  'ServiceRegistries',
  'HealthCheckGracePeriodSeconds',
  'EnableECSManagedTags',
  'EnableExecuteCommand',
  'PropagateTags',
  'Role',
];
const UPDATABLE = SENT.filter(
  (key) => !['LaunchType', 'DeploymentController', 'SchedulingStrategy', 'Role'].includes(key),
);

/**
 * AWS::ECS::Service through CreateService (tags and an idempotency token in the same call),
 * UpdateService and DeleteService. Physical id and Ref: the service ARN, which names its
 * cluster. As CloudFormation does, a create or update is done once the service is stable
 * (its one deployment's tasks all running), and a delete once the service is INACTIVE (ECS
 * refuses to delete a cluster while a service in it is still draining).
 */
export class ServiceProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: SERVICE_TYPE,
    covered: ['Cluster', 'ServiceName', ...SENT, 'Tags'],
  };

  constructor(private readonly clock?: Clock) {
    super();
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await ecs(context);
    const { properties } = request;
    const sent = pick(properties, SENT);
    // CloudFormation starts a replica service with one task when the template gives no count.
    if (sent.DesiredCount === undefined && properties.SchedulingStrategy !== 'DAEMON') sent.DesiredCount = 1;
    const { service } = await client.send(
      new CreateServiceCommand({
        ...(toEcsShape(sent, 'service') as unknown as CreateInput),
        cluster: clusterOf(properties),
        serviceName: serviceName(request, context),
        tags: ecsTags(properties.Tags, request.idempotencyToken),
        ...(request.idempotencyToken && { clientToken: request.idempotencyToken.slice(0, 36) }),
      }),
      { abortSignal: context.signal },
    );
    const arn = service!.serviceArn!;
    return {
      physicalId: arn,
      attributes: attributesOf(service!),
      creationIdentity: { ServiceArn: arn, CreatedAt: service!.createdAt?.toISOString() ?? '' },
      observed: propertiesOf(service!),
    };
  }

  /** CloudFormation reports a new service done once it is stable. */
  async untilUsable(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await this.untilStable(await ecs(context), request.physicalId, context);
  }

  createName(request: ResourceRequest, context: ProviderContext): string {
    return serviceName(request, context);
  }

  /** The service a create with this token made: the token tag CreateService wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const live = await describe(
      await ecs(context),
      clusterOf(request.properties),
      serviceName(request, context),
      context,
    );
    if (!live || live.status !== 'ACTIVE') return 'none';
    const tagged = live.tags?.some((tag) => tag.key === TOKEN_TAG && tag.value === token);
    return tagged || nameFromToken(request.properties.ServiceName, request)
      ? { physicalId: live.serviceArn! }
      : 'none';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ecs(context);
    const arn = request.physicalId;
    const changed = changedKeys(request.previousProperties, request.properties, UPDATABLE);
    if (changed.length > 0) {
      const sent = pick(request.properties, changed);
      // Absent from the template, the count stays what it is (an autoscaler may own it).
      delete sent.DesiredCount;
      if (request.properties.DesiredCount !== undefined && changed.includes('DesiredCount')) {
        sent.DesiredCount = request.properties.DesiredCount;
      }
      await client.send(
        new UpdateServiceCommand({
          ...(toEcsShape(sent, 'service') as unknown as UpdateInput),
          cluster: clusterOfArn(arn),
          service: arn,
        }),
        { abortSignal: context.signal },
      );
    }
    await updateEcsTags(client, arn, request.previousProperties.Tags, request.properties.Tags, context);
    if (changed.length > 0) await this.untilStable(client, arn, context);
    const live = await describe(client, clusterOfArn(arn), arn, context);
    return {
      physicalId: arn,
      attributes: live ? attributesOf(live) : {},
      ...(live && { observed: propertiesOf(live) }),
    };
  }

  /** DeleteService with force (no scale-down first), then the wait for INACTIVE; a service already gone is deleted. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ecs(context);
    const cluster = clusterOfArn(request.physicalId);
    try {
      await client.send(new DeleteServiceCommand({ cluster, service: request.physicalId, force: true }), {
        abortSignal: context.signal,
      });
    } catch (error) {
      const code = awsErrorCode(error);
      if (code === 'ServiceNotFoundException' || code === 'ClusterNotFoundException') return;
      if (code !== 'ServiceNotActiveException') throw error;
    }
    await pollUntil(
      async () => {
        const live = await describe(client, cluster, request.physicalId, context);
        return !live || live.status === 'INACTIVE' ? 'done' : 'waiting';
      },
      {
        what: `ECS service ${request.physicalId} draining to INACTIVE`,
        deadlineMs: STABLE_DEADLINE_MS,
        console: 'ECS',
        clock: this.clock,
        signal: context.signal,
      },
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const live = await describe(
      await ecs(context),
      clusterOfArn(request.physicalId),
      request.physicalId,
      context,
    );
    if (!live || live.status !== 'ACTIVE') return undefined;
    return {
      properties: propertiesOf(live),
      attributes: attributesOf(live),
      creationIdentity: { ServiceArn: request.physicalId, CreatedAt: live.createdAt?.toISOString() ?? '' },
    };
  }

  /** ECS's services-stable: one deployment, its running count the desired count. */
  private async untilStable(client: ECSClient, arn: string, context: ProviderContext): Promise<void> {
    await pollUntil(
      async () => {
        const live = await describe(client, clusterOfArn(arn), arn, context);
        if (!live || live.status !== 'ACTIVE')
          throw new Error(`ECS service ${arn} is no longer ACTIVE; check it in the ECS console.`);
        const failed = live.deployments?.find((deployment) => deployment.rolloutState === 'FAILED');
        if (failed)
          throw new Error(
            `ECS service ${arn} failed to deploy: ${failed.rolloutStateReason ?? 'no reason given'}.`,
          );
        const steady = live.deployments?.length === 1 && live.runningCount === live.desiredCount;
        return steady ? 'done' : 'waiting';
      },
      {
        what: `ECS service ${arn} reaching a steady state`,
        deadlineMs: STABLE_DEADLINE_MS,
        console: 'ECS',
        clock: this.clock,
        signal: context.signal,
      },
    );
  }
}

type CreateInput = ConstructorParameters<typeof CreateServiceCommand>[0];
type UpdateInput = ConstructorParameters<typeof UpdateServiceCommand>[0];

function serviceName(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.ServiceName, context.stackName, request, SERVICE_NAME_RULES);
}

function clusterOf(properties: JsonObject): string {
  return typeof properties.Cluster === 'string' && properties.Cluster !== '' ? properties.Cluster : 'default';
}

/** `arn:aws:ecs:<region>:<account>:service/<cluster>/<name>` → the cluster. */
function clusterOfArn(arn: string): string {
  return /:service\/([^/]+)\/[^/]+$/.exec(arn)?.[1] ?? 'default';
}

function attributesOf(service: Service): JsonObject {
  return { ServiceArn: service.serviceArn, Name: service.serviceName };
}

/** The template's properties as ECS describes the service. */
function propertiesOf(service: Service): JsonObject {
  const api = toEcsShape(Object.fromEntries(SENT.map((key) => [key, true])), 'service');
  const given = Object.fromEntries(
    Object.entries(service).filter(([key, value]) => key in api && value !== undefined),
  );
  const tags = templateTags(service.tags);
  return {
    Cluster: service.clusterArn,
    ServiceName: service.serviceName,
    ...fromEcsShape(given, 'service'),
    ...(tags && { Tags: tags }),
  };
}

async function describe(client: ECSClient, cluster: string, service: string, context: ProviderContext) {
  try {
    const output = await client.send(
      new DescribeServicesCommand({ cluster, services: [service], include: ['TAGS'] }),
      {
        abortSignal: context.signal,
      },
    );
    return output.services?.[0];
  } catch (error) {
    if (awsErrorCode(error) === 'ClusterNotFoundException') return undefined;
    throw error;
  }
}

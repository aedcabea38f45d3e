import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClustersCommand,
  UpdateClusterCommand,
  type Cluster,
  type ECSClient,
} from '@aws-sdk/client-ecs';
import { fromEcsShape, toEcsShape } from '../../aws/index.js';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { givenOrTokenName, nameFromToken, TOKEN_TAG, type NameRules } from '../physical-names.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  NameLookup,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { changedKeys, pick } from '../property-values.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';
import { ecs, ecsTags, templateTags, updateEcsTags } from './client.js';

export const CLUSTER_TYPE = 'AWS::ECS::Cluster';

/** CloudFormation's generated cluster names: `{stack}-{logicalId}-{SUFFIX}` within ECS's 255. */
const CLUSTER_NAME_RULES: NameRules = { maxLength: 255, extraCharacters: '-_' };

/** What UpdateCluster changes in place; capacity providers are left to Cloud Control. */
const UPDATABLE = ['ClusterSettings', 'Configuration', 'ServiceConnectDefaults'];

/**
 * AWS::ECS::Cluster through CreateCluster (tags in the same call), UpdateCluster and
 * DeleteCluster. Physical id and Ref: the cluster name, Cloud Control's identifier too.
 */
export class ClusterProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: CLUSTER_TYPE,
    covered: ['ClusterName', ...UPDATABLE, 'Tags'],
  };

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await ecs(context);
    const name = clusterName(request, context);
    const { cluster } = await client.send(
      new CreateClusterCommand({
        ...toEcsShape(pick(request.properties, UPDATABLE), 'cluster'),
        clusterName: name,
        tags: ecsTags(request.properties.Tags, request.idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    const arn = cluster?.clusterArn ?? '';
    return {
      physicalId: name,
      attributes: { Arn: arn },
      creationIdentity: { Arn: arn },
      ...(cluster && { observed: propertiesOf(cluster) }),
    };
  }

  createName(request: ResourceRequest, context: ProviderContext): string {
    return clusterName(request, context);
  }

  /** CreateCluster answers the cluster already holding a name: look an explicit one up first. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    const given = request.properties.ClusterName;
    if (typeof given !== 'string' || given === '') return undefined;
    const live = await describe(await ecs(context), given, context);
    return { name: given, ...(live && { holder: given }) };
  }

  /** The cluster a create with this token made: its generated name, or the token tag it wrote. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const token = request.idempotencyToken;
    if (!token) return 'unknown';
    const name = clusterName(request, context);
    const live = await describe(await ecs(context), name, context);
    if (!live) return 'none';
    const tagged = live.tags?.some((tag) => tag.key === TOKEN_TAG && tag.value === token);
    return tagged || nameFromToken(request.properties.ClusterName, request)
      ? { physicalId: name }
      : 'unknown';
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await ecs(context);
    const name = request.physicalId;
    const changed = changedKeys(request.previousProperties, request.properties, UPDATABLE);
    if (changed.length > 0) {
      await client.send(
        new UpdateClusterCommand({
          cluster: name,
          ...toEcsShape(pick(request.properties, changed), 'cluster'),
        }),
        { abortSignal: context.signal },
      );
    }
    const live = await describe(client, name, context);
    await updateEcsTags(
      client,
      live?.clusterArn ?? name,
      request.previousProperties.Tags,
      request.properties.Tags,
      context,
    );
    return { physicalId: name, attributes: { Arn: live?.clusterArn } };
  }

  /** A cluster already gone is deleted; one still holding draining services is refused and retried. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await ecs(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteClusterCommand({ cluster: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('ClusterNotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const live = await describe(await ecs(context), request.physicalId, context);
    if (!live) return undefined;
    return {
      properties: propertiesOf(live),
      attributes: { Arn: live.clusterArn },
      creationIdentity: { Arn: live.clusterArn ?? '' },
    };
  }
}

function clusterName(request: ResourceRequest, context: ProviderContext): string {
  return givenOrTokenName(request.properties.ClusterName, context.stackName, request, CLUSTER_NAME_RULES);
}

/** The template's properties as ECS describes the cluster. */
function propertiesOf(cluster: Cluster): JsonObject {
  const shaped = fromEcsShape(
    {
      settings: cluster.settings,
      configuration: cluster.configuration,
      serviceConnectDefaults: cluster.serviceConnectDefaults,
    },
    'cluster',
  );
  const tags = templateTags(cluster.tags);
  return {
    ClusterName: cluster.clusterName,
    ...Object.fromEntries(Object.entries(shaped).filter(([, value]) => value !== undefined)),
    ...(tags && { Tags: tags }),
  };
}

/** The ACTIVE cluster of that name, or undefined. */
async function describe(
  client: ECSClient,
  name: string,
  context: ProviderContext,
): Promise<Cluster | undefined> {
  const output = await client.send(
    new DescribeClustersCommand({ clusters: [name], include: ['TAGS', 'SETTINGS', 'CONFIGURATIONS'] }),
    { abortSignal: context.signal },
  );
  return output.clusters?.find((cluster) => cluster.status === 'ACTIVE');
}

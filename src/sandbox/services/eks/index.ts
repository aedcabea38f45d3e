import { randomUUID } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ResourceModel } from '../../resources.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { DocumentMap } from '../../storage/document-map.js';
import { restJsonApiModule, writableOf, type ApiCall } from '../api-module.js';
import { clusterView, tagList, tagMap, toApi, toModel } from './shapes.js';

const CLUSTER = 'AWS::EKS::Cluster';
const PROFILE = 'AWS::EKS::FargateProfile';

interface UpdateRecord {
  id: string;
  cluster: string;
  type: string;
  params: Array<{ type: string; value: string }>;
  createdAt: number;
}

const notFound = (message: string) => new SandboxError('ResourceNotFoundException', message, 404);

/**
 * EKS clusters and Fargate profiles over REST-JSON, on Cloud Control's stores for their
 * types (the CDK's cluster handler makes them through this API). Everything is ACTIVE and
 * every update Successful at once: there is no control plane to start.
 */
export const createEksService: ServiceModuleFactory = async (context) => {
  const clusters = () => context.resources.resolve(CLUSTER)!;
  const profiles = () => context.resources.resolve(PROFILE)!;
  const updates = await DocumentMap.load<UpdateRecord>(context.storage, 'eks/updates');
  const cluster = ({ labels, region, accountId }: ApiCall): ResourceModel => {
    const model = clusters().read(labels.name!, region, accountId);
    if (!model) throw notFound(`No cluster found for name: ${labels.name}.`);
    return model;
  };
  const profileView = (model: ResourceModel, call: ApiCall, status = 'ACTIVE') => ({
    fargateProfileName: model.FargateProfileName,
    fargateProfileArn: `arn:aws:eks:${call.region}:${call.accountId}:fargateprofile/${String(model.ClusterName)}/${String(model.FargateProfileName)}`,
    clusterName: model.ClusterName,
    podExecutionRoleArn: model.PodExecutionRoleArn,
    subnets: model.Subnets ?? [],
    selectors: toApi(model.Selectors) ?? [],
    status,
    tags: tagMap(model.Tags),
  });
  const startUpdate = async (call: ApiCall, type: string, params: UpdateRecord['params']) => {
    const update = { id: randomUUID(), cluster: call.labels.name!, type, params, createdAt: Date.now() };
    await updates.put(update.id, update);
    return { update: updateView(update) };
  };
  const reconfigure = async (call: ApiCall, change: (desired: ResourceModel) => void) => {
    const desired = writableOf(CLUSTER, cluster(call));
    change(desired);
    await clusters().update(call.labels.name!, desired, call.region, call.accountId);
  };
  return restJsonApiModule({
    name: 'eks',
    routes: [
      { method: 'POST', path: '/clusters', operation: 'CreateCluster' },
      { method: 'GET', path: '/clusters/{name}', operation: 'DescribeCluster' },
      { method: 'DELETE', path: '/clusters/{name}', operation: 'DeleteCluster' },
      { method: 'POST', path: '/clusters/{name}/update-config', operation: 'UpdateClusterConfig' },
      { method: 'POST', path: '/clusters/{name}/updates', operation: 'UpdateClusterVersion' },
      { method: 'GET', path: '/clusters/{name}/updates/{updateId}', operation: 'DescribeUpdate' },
      { method: 'POST', path: '/clusters/{name}/fargate-profiles', operation: 'CreateFargateProfile' },
      {
        method: 'GET',
        path: '/clusters/{name}/fargate-profiles/{profile}',
        operation: 'DescribeFargateProfile',
      },
      {
        method: 'DELETE',
        path: '/clusters/{name}/fargate-profiles/{profile}',
        operation: 'DeleteFargateProfile',
      },
      { method: 'POST', path: '/tags/{arn}', operation: 'TagResource' },
      { method: 'DELETE', path: '/tags/{arn}', operation: 'UntagResource' },
    ],
    handlers: {
      CreateCluster: async (call) => {
        const name = requiredString(call.input, 'name', 'InvalidParameterException');
        if (clusters().read(name, call.region, call.accountId)) {
          throw new SandboxError('ResourceInUseException', `Cluster already exists with name: ${name}`, 409);
        }
        const { tags, ...settings } = call.input;
        const entry = await clusters().create(
          {
            ...(toModel(settings) as ResourceModel),
            Name: name,
            ...(tags !== undefined && { Tags: tagList(tags) }),
          },
          call.region,
          call.accountId,
        );
        return { cluster: { ...clusterView(entry.model, call.region, call.accountId), status: 'CREATING' } };
      },
      DescribeCluster: (call) => ({ cluster: clusterView(cluster(call), call.region, call.accountId) }),
      DeleteCluster: async (call) => {
        const model = cluster(call);
        const held = profiles()
          .list(call.region, call.accountId)
          .filter((entry) => entry.model.ClusterName === call.labels.name);
        if (held.length > 0) {
          throw new SandboxError(
            'ResourceInUseException',
            `Cluster has Fargate profiles attached: ${call.labels.name}`,
            409,
          );
        }
        await clusters().delete(call.labels.name!, call.region, call.accountId);
        return { cluster: { ...clusterView(model, call.region, call.accountId), status: 'DELETING' } };
      },
      UpdateClusterConfig: async (call) => {
        await reconfigure(call, (desired) => {
          if (call.input.resourcesVpcConfig !== undefined) {
            desired.ResourcesVpcConfig = {
              ...(desired.ResourcesVpcConfig as object),
              ...(toModel(call.input.resourcesVpcConfig) as object),
            };
          }
          if (call.input.logging !== undefined) desired.Logging = toModel(call.input.logging);
          if (call.input.accessConfig !== undefined) desired.AccessConfig = toModel(call.input.accessConfig);
        });
        return startUpdate(
          call,
          call.input.logging !== undefined ? 'LoggingUpdate' : 'EndpointAccessUpdate',
          [],
        );
      },
      UpdateClusterVersion: async (call) => {
        const version = requiredString(call.input, 'version', 'InvalidParameterException');
        await reconfigure(call, (desired) => {
          desired.Version = version;
        });
        return startUpdate(call, 'VersionUpdate', [{ type: 'Version', value: version }]);
      },
      DescribeUpdate: (call) => {
        cluster(call);
        const update = updates.get(call.labels.updateId!);
        if (!update || update.cluster !== call.labels.name)
          throw notFound(`No update found for ID: ${call.labels.updateId}`);
        return { update: updateView(update) };
      },
      CreateFargateProfile: async (call) => {
        cluster(call);
        const { tags, ...settings } = call.input;
        const entry = await profiles().create(
          {
            ...(toModel(settings) as ResourceModel),
            ClusterName: call.labels.name,
            ...(tags !== undefined && { Tags: tagList(tags) }),
          },
          call.region,
          call.accountId,
        );
        return { fargateProfile: profileView(entry.model, call, 'CREATING') };
      },
      DescribeFargateProfile: (call) => {
        const model = profiles().read(
          `${call.labels.name}|${call.labels.profile}`,
          call.region,
          call.accountId,
        );
        if (!model) throw notFound(`No Fargate Profile found with name: ${call.labels.profile}.`);
        return { fargateProfile: profileView(model, call) };
      },
      DeleteFargateProfile: async (call) => {
        const id = `${call.labels.name}|${call.labels.profile}`;
        const model = profiles().read(id, call.region, call.accountId);
        if (!model) throw notFound(`No Fargate Profile found with name: ${call.labels.profile}.`);
        await profiles().delete(id, call.region, call.accountId);
        return { fargateProfile: profileView(model, call, 'DELETING') };
      },
      TagResource: async (call) => {
        await retag(call, (tags) => ({ ...tags, ...(call.input.tags as Record<string, string>) }));
        return {};
      },
      UntagResource: async (call) => {
        const keys = call.request.query.getAll('tagKeys');
        await retag(call, (tags) =>
          Object.fromEntries(Object.entries(tags).filter(([key]) => !keys.includes(key))),
        );
        return {};
      },
    },
  });

  async function retag(call: ApiCall, change: (tags: Record<string, string>) => Record<string, string>) {
    const name = /:cluster\/([^/]+)$/.exec(call.labels.arn ?? '')?.[1];
    if (!name) throw notFound(`Resource ${call.labels.arn} not found.`);
    await reconfigure({ ...call, labels: { name } }, (desired) => {
      desired.Tags = tagList(change(tagMap(desired.Tags)));
    });
  }
};

function updateView(update: UpdateRecord) {
  return {
    id: update.id,
    status: 'Successful',
    type: update.type,
    params: update.params,
    createdAt: update.createdAt / 1000,
    errors: [],
  };
}

import type { ResourceEntry, ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import { applyPatch, type PatchRule } from './patch.js';
import { defined, stringMap, tagListOf, tagMapOf, text } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

const STAGE_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const CACHE_SIZES = ['0.5', '1.6', '6.1', '13.5', '28.4', '58.2', '118', '237'];

/** CreateStage, GetStage(s), UpdateStage and DeleteStage over Stage models. */
export function stageHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  const find = (call: ApiCall): { store: RestApiStore; entry: ResourceEntry } => {
    const store = storeOf(call);
    const restApiId = call.labels.restapi_id!;
    store.api(restApiId);
    const entry = store
      .parts(TYPES.stage, restApiId)
      .find((candidate) => candidate.model.StageName === call.labels.stage_name);
    if (!entry) throw apigwErrors.notFound('Invalid Stage identifier specified');
    return { store, entry };
  };
  return {
    CreateStage: async (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      store.api(restApiId);
      const input = call.input;
      const stageName = String(input.stageName ?? '');
      if (!STAGE_NAME.test(stageName)) {
        throw apigwErrors.badRequest('Stage name only allows a-zA-Z0-9_-');
      }
      const deploymentId = String(input.deploymentId ?? '');
      checkDeployment(store, restApiId, deploymentId);
      const taken =
        store.parts(TYPES.stage, restApiId).some((entry) => entry.model.StageName === stageName) ||
        store.parts(TYPES.deployment, restApiId).some((entry) => entry.model.StageName === stageName);
      if (taken) throw apigwErrors.conflict('Stage already exists');
      const model = defined({
        RestApiId: restApiId,
        StageName: stageName,
        DeploymentId: deploymentId,
        Description: text(input.description),
        Variables: stringMap(input.variables),
        TracingEnabled: input.tracingEnabled === true ? true : undefined,
        CacheClusterEnabled: input.cacheClusterEnabled === true ? true : undefined,
        CacheClusterSize: text(input.cacheClusterSize),
        Tags: tagListOf(input.tags),
      });
      checkCache(model);
      const made = await store.create(TYPES.stage, model);
      return stageOutput(store, made);
    },
    GetStages: (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      store.api(restApiId);
      const deploymentId = call.request.query.get('deploymentId');
      return {
        item: store
          .parts(TYPES.stage, restApiId)
          .filter((entry) => !deploymentId || entry.model.DeploymentId === deploymentId)
          .map((entry) => stageOutput(store, entry)),
      };
    },
    GetStage: (call) => {
      const { store, entry } = find(call);
      return stageOutput(store, entry);
    },
    UpdateStage: async (call) => {
      const { store, entry } = find(call);
      const model = applyPatch(entry.model, call.input.patchOperations, STAGE_PATCH_RULES);
      checkDeployment(store, call.labels.restapi_id!, String(model.DeploymentId ?? ''));
      checkCache(model);
      const updated = await store.update(TYPES.stage, entry, model);
      return stageOutput(store, { identifier: entry.identifier, model: updated });
    },
    DeleteStage: async (call) => {
      const { store, entry } = find(call);
      await store.delete(TYPES.stage, entry);
      return undefined;
    },
  };
}

const STAGE_PATCH_RULES: Readonly<Record<string, PatchRule>> = {
  '/deploymentId': { kind: 'string', prop: 'DeploymentId' },
  '/description': { kind: 'string', prop: 'Description' },
  '/tracingEnabled': { kind: 'bool', prop: 'TracingEnabled' },
  '/cacheClusterEnabled': { kind: 'bool', prop: 'CacheClusterEnabled' },
  '/cacheClusterSize': { kind: 'string', prop: 'CacheClusterSize' },
  '/variables/*': { kind: 'map', prop: 'Variables' },
};

function checkDeployment(store: RestApiStore, restApiId: string, deploymentId: string): void {
  const exists = store
    .parts(TYPES.deployment, restApiId)
    .some((entry) => entry.model.DeploymentId === deploymentId);
  if (!exists) throw apigwErrors.badRequest(`Invalid deployment id: ${deploymentId || '(none)'}`);
}

function checkCache(model: ResourceModel): void {
  if (model.CacheClusterSize !== undefined && !CACHE_SIZES.includes(String(model.CacheClusterSize))) {
    throw apigwErrors.badRequest(`Invalid cache cluster size: one of ${CACHE_SIZES.join(', ')}`);
  }
}

function stageOutput(store: RestApiStore, entry: ResourceEntry): Record<string, unknown> {
  const model = entry.model;
  const created = store.createdAt(TYPES.stage, entry);
  return defined({
    deploymentId: model.DeploymentId,
    stageName: model.StageName,
    description: model.Description,
    variables: model.Variables,
    tracingEnabled: model.TracingEnabled ?? false,
    cacheClusterEnabled: model.CacheClusterEnabled ?? false,
    cacheClusterSize: model.CacheClusterSize,
    cacheClusterStatus: model.CacheClusterEnabled === true ? 'AVAILABLE' : 'NOT_AVAILABLE',
    methodSettings: {},
    tags: tagMapOf(model),
    createdDate: created,
    lastUpdatedDate: created,
  });
}

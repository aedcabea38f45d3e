import type { ResourceEntry } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import { applyPatch } from './patch.js';
import { defined, stringMap, text } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

/**
 * CreateDeployment, GetDeployment(s), UpdateDeployment and DeleteDeployment. A deployment is
 * made through the Deployment type's handler, which freezes the API's configuration for the
 * stages that point at it (config/deployments.ts), as one made through Cloud Control is.
 */
export function deploymentHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  const find = (call: ApiCall): { store: RestApiStore; entry: ResourceEntry } => {
    const store = storeOf(call);
    const restApiId = call.labels.restapi_id!;
    store.api(restApiId);
    const entry = store
      .parts(TYPES.deployment, restApiId)
      .find((candidate) => candidate.model.DeploymentId === call.labels.deployment_id);
    if (!entry) throw apigwErrors.notFound('Invalid Deployment identifier specified');
    return { store, entry };
  };
  return {
    CreateDeployment: async (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      // An API imported from an OpenAPI definition (Body) has methods the sandbox does not model.
      const api = store.api(restApiId).model;
      const fromDefinition = api.Body !== undefined || api.BodyS3Location !== undefined;
      if (!fromDefinition && store.parts(TYPES.method, restApiId).length === 0) {
        throw apigwErrors.badRequest("The REST API doesn't contain any methods");
      }
      const stageName = text(call.input.stageName);
      if (stageName && store.parts(TYPES.stage, restApiId).some((e) => e.model.StageName === stageName)) {
        throw apigwErrors.badRequest(`Stage ${stageName} already exists: update its deploymentId instead.`);
      }
      const stageDescription = defined({
        Description: text(call.input.stageDescription),
        Variables: stringMap(call.input.variables),
      });
      const made = await store.create(
        TYPES.deployment,
        defined({
          RestApiId: restApiId,
          Description: text(call.input.description),
          StageName: stageName,
          StageDescription:
            stageName && Object.keys(stageDescription).length > 0 ? stageDescription : undefined,
        }),
      );
      return deploymentOutput(store, made);
    },
    GetDeployments: (call) => {
      const store = storeOf(call);
      const restApiId = call.labels.restapi_id!;
      store.api(restApiId);
      return {
        item: store.parts(TYPES.deployment, restApiId).map((entry) => deploymentOutput(store, entry)),
      };
    },
    GetDeployment: (call) => {
      const { store, entry } = find(call);
      return deploymentOutput(store, entry);
    },
    UpdateDeployment: async (call) => {
      const { store, entry } = find(call);
      const model = applyPatch(entry.model, call.input.patchOperations, {
        '/description': { kind: 'string', prop: 'Description' },
      });
      const updated = await store.update(TYPES.deployment, entry, model);
      return deploymentOutput(store, { identifier: entry.identifier, model: updated });
    },
    DeleteDeployment: async (call) => {
      const { store, entry } = find(call);
      const deploymentId = entry.model.DeploymentId;
      const active =
        entry.model.StageName !== undefined ||
        store
          .parts(TYPES.stage, call.labels.restapi_id!)
          .some((stage) => stage.model.DeploymentId === deploymentId);
      if (active) {
        throw apigwErrors.badRequest('Active stages pointing to this deployment must be moved or deleted');
      }
      await store.delete(TYPES.deployment, entry);
      return undefined;
    },
  };
}

function deploymentOutput(store: RestApiStore, entry: ResourceEntry): Record<string, unknown> {
  return defined({
    id: entry.model.DeploymentId,
    description: entry.model.Description,
    createdDate: store.createdAt(TYPES.deployment, entry),
  });
}

import type { ResourceModel } from '../../../resources.js';
import type { ApiCall, ApiHandler } from '../../api-module.js';
import { apigwErrors } from './errors.js';
import { applyPatch, type PatchRule } from './patch.js';
import { defined, tagListOf, tagMapOf, text } from './shapes.js';
import { TYPES, type RestApiStore } from './store.js';

const ENDPOINT_TYPES = ['EDGE', 'REGIONAL', 'PRIVATE'];

/** CreateRestApi, GetRestApi(s), UpdateRestApi and DeleteRestApi over RestApi models. */
export function restApiHandlers(storeOf: (call: ApiCall) => RestApiStore): Record<string, ApiHandler> {
  return {
    CreateRestApi: async (call) => {
      const input = call.input;
      const name = text(input.name);
      if (!name) throw apigwErrors.badRequest('Invalid REST API name specified: a name is required.');
      if (input.cloneFrom !== undefined) {
        throw apigwErrors.badRequest('The sandbox does not clone REST APIs (cloneFrom).');
      }
      const endpoint = input.endpointConfiguration as
        { types?: unknown[]; vpcEndpointIds?: unknown[] } | undefined;
      const types = (endpoint?.types ?? []).map(String);
      if (types.length > 1 || types.some((type) => !ENDPOINT_TYPES.includes(type))) {
        throw apigwErrors.badRequest(
          `Invalid endpoint configuration types ${JSON.stringify(types)}: one of ${ENDPOINT_TYPES.join(', ')}.`,
        );
      }
      const desired: ResourceModel = defined({
        Name: name,
        Description: text(input.description),
        Version: text(input.version),
        BinaryMediaTypes: listOrUndefined(input.binaryMediaTypes),
        MinimumCompressionSize: input.minimumCompressionSize,
        ApiKeySourceType: text(input.apiKeySource),
        EndpointConfiguration:
          types.length > 0
            ? defined({ Types: types, VpcEndpointIds: listOrUndefined(endpoint?.vpcEndpointIds) })
            : undefined,
        Policy: policyOf(input.policy),
        DisableExecuteApiEndpoint: input.disableExecuteApiEndpoint,
        Tags: tagListOf(input.tags),
      });
      const store = storeOf(call);
      const made = await store.create(TYPES.api, desired);
      return restApiOutput(made.model, store.createdAt(TYPES.api, made));
    },
    GetRestApis: (call) => {
      const store = storeOf(call);
      return {
        item: store.apis().map((entry) => restApiOutput(entry.model, store.createdAt(TYPES.api, entry))),
      };
    },
    GetRestApi: (call) => {
      const store = storeOf(call);
      const entry = store.api(call.labels.restapi_id!);
      return restApiOutput(entry.model, store.createdAt(TYPES.api, entry));
    },
    UpdateRestApi: async (call) => {
      const store = storeOf(call);
      const entry = store.api(call.labels.restapi_id!);
      const model = applyPatch(entry.model, call.input.patchOperations, PATCH_RULES);
      if (typeof model.Name !== 'string') throw apigwErrors.badRequest('Invalid REST API name specified');
      const updated = await store.update(TYPES.api, entry, model);
      return restApiOutput(updated, store.createdAt(TYPES.api, entry));
    },
    DeleteRestApi: async (call) => {
      await storeOf(call).deleteApi(call.labels.restapi_id!);
      return undefined;
    },
  };
}

const PATCH_RULES: Readonly<Record<string, PatchRule>> = {
  '/name': { kind: 'string', prop: 'Name' },
  '/description': { kind: 'string', prop: 'Description' },
  '/version': { kind: 'string', prop: 'Version' },
  '/apiKeySource': { kind: 'string', prop: 'ApiKeySourceType' },
  '/minimumCompressionSize': { kind: 'int', prop: 'MinimumCompressionSize' },
  '/disableExecuteApiEndpoint': { kind: 'bool', prop: 'DisableExecuteApiEndpoint' },
  '/binaryMediaTypes/*': { kind: 'set', prop: 'BinaryMediaTypes' },
  '/policy': {
    kind: 'custom',
    apply: (model, op) => {
      const policy = op.op === 'remove' ? undefined : policyOf(op.value);
      if (policy === undefined) delete model.Policy;
      else model.Policy = policy;
    },
  },
  // An endpoint type changes by replacing the one in the list (EDGE to REGIONAL and back).
  '/endpointConfiguration/types/0': {
    kind: 'custom',
    apply: (model, op) => {
      const type = String(op.value ?? '');
      if (op.op !== 'replace' || !ENDPOINT_TYPES.includes(type)) {
        throw apigwErrors.badRequest(`Invalid endpoint configuration type '${type}'`);
      }
      const current = (model.EndpointConfiguration as ResourceModel | undefined) ?? {};
      model.EndpointConfiguration = { ...current, Types: [type] };
    },
  },
};

/** The RestApi as GetRestApi answers it. */
function restApiOutput(model: ResourceModel, createdDate: number): Record<string, unknown> {
  const endpoint = (model.EndpointConfiguration as ResourceModel | undefined) ?? {};
  return defined({
    id: model.RestApiId,
    name: model.Name,
    description: model.Description,
    createdDate,
    version: model.Version,
    binaryMediaTypes: model.BinaryMediaTypes,
    minimumCompressionSize: model.MinimumCompressionSize,
    apiKeySource: model.ApiKeySourceType ?? 'HEADER',
    endpointConfiguration: defined({
      types: endpoint.Types ?? ['EDGE'],
      vpcEndpointIds: endpoint.VpcEndpointIds,
      ipAddressType: (endpoint.Types as string[] | undefined)?.includes('PRIVATE') ? 'dualstack' : 'ipv4',
    }),
    policy: model.Policy === undefined ? undefined : JSON.stringify(model.Policy),
    tags: tagMapOf(model),
    disableExecuteApiEndpoint: model.DisableExecuteApiEndpoint ?? false,
    rootResourceId: model.RootResourceId,
  });
}

/** A policy document: kept as the object CloudFormation gives, whichever way it arrives. */
function policyOf(value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value === '' ? undefined : value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw apigwErrors.badRequest('Invalid policy document: not JSON.');
  }
}

function listOrUndefined(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0 ? value.map(String) : undefined;
}

import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import type { InventoryEntry, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { ccErrors } from './cc-errors.js';
import { GenericStore } from './generic-store.js';
import * as ops from './operations.js';
import { RequestTracker } from './requests.js';

const TARGET_PREFIX = 'CloudApiService';
const MUTATING = new Set(['CreateResource', 'UpdateResource', 'DeleteResource', 'CancelResourceRequest']);

/**
 * The Cloud Control API over JSON 1.0. Types a service module emulates go through that
 * module (AWS::S3::Bucket, AWS::SSM::Parameter); every other type the resource index
 * knows lives in a generic store.
 */
export const createCloudControlService: ServiceModuleFactory = async (context) => {
  const generic = await GenericStore.load(context.storage, context.accountId);
  context.resources.setFallback((type) => (sandboxSchemaFor(type) ? generic.handlerFor(type) : undefined));
  const deps = { context, generic } as ops.CcDeps;
  deps.tracker = await RequestTracker.load(context.storage, ops.executor(deps));
  const codec = jsonCodec('1.0');
  const module: ServiceModule = {
    name: 'cloudcontrolapi',
    codec,
    operation: (request) => jsonOperation(request, TARGET_PREFIX),
    isMutating: (operation) => MUTATING.has(operation),
    async handle(request, operation) {
      const input = jsonInput(request);
      const region = request.region;
      switch (operation) {
        case 'CreateResource':
          return jsonResult('1.0', await ops.createResource(deps, region, input));
        case 'UpdateResource':
          return jsonResult('1.0', await ops.updateResource(deps, region, input));
        case 'DeleteResource':
          return jsonResult('1.0', await ops.deleteResource(deps, region, input));
        case 'GetResource':
          return jsonResult('1.0', await ops.getResource(deps, region, input));
        case 'ListResources':
          return jsonResult('1.0', await ops.listResources(deps, region, input));
        case 'GetResourceRequestStatus':
          return jsonResult('1.0', await ops.getResourceRequestStatus(deps, input));
        case 'ListResourceRequests':
          return jsonResult('1.0', await ops.listResourceRequests(deps, region, input));
        case 'CancelResourceRequest':
          return jsonResult('1.0', await ops.cancelResourceRequest(deps, input));
        default:
          throw ccErrors.unknownOperation(operation);
      }
    },
    inventory(): Record<string, InventoryEntry[]> {
      return generic.byType();
    },
    async close() {
      deps.tracker.close();
    },
  };
  return module;
};

import { jsonCodec, jsonInput, jsonOperation, jsonResult } from '../../protocols/json.js';
import type { ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import * as ops from './parameter-ops.js';
import { getParametersByPath } from './path-ops.js';
import { parameterResourceHandler } from './parameter-resource.js';
import { ssmErrors } from './ssm-errors.js';
import { current, ParameterStore } from './store.js';
import { addTagsToResource, listTagsForResource, removeTagsFromResource } from './tag-ops.js';

const HANDLERS: Record<string, (call: ops.SsmCall) => Promise<unknown>> = {
  PutParameter: ops.putParameter,
  GetParameter: ops.getParameter,
  GetParameters: ops.getParameters,
  DeleteParameter: ops.deleteParameter,
  DeleteParameters: ops.deleteParameters,
  DescribeParameters: ops.describeParameters,
  GetParametersByPath: getParametersByPath,
  ListTagsForResource: listTagsForResource,
  AddTagsToResource: addTagsToResource,
  RemoveTagsFromResource: removeTagsFromResource,
};

const MUTATING = new Set([
  'PutParameter',
  'DeleteParameter',
  'DeleteParameters',
  'AddTagsToResource',
  'RemoveTagsFromResource',
]);

/** SSM Parameter Store over JSON 1.1; also serves AWS::SSM::Parameter to Cloud Control. */
export const createSsmService: ServiceModuleFactory = async (context) => {
  const store = await ParameterStore.load(context.storage);
  context.resources.register('AWS::SSM::Parameter', parameterResourceHandler(store));
  const module: ServiceModule = {
    name: 'ssm',
    codec: jsonCodec('1.1'),
    operation: (request) => jsonOperation(request, 'AmazonSSM'),
    isMutating: (operation) => MUTATING.has(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw ssmErrors.invalidAction(operation);
      const call = { store, accountId: request.accountId, region: request.region, input: jsonInput(request) };
      return jsonResult('1.1', await handler(call));
    },
    inventory() {
      const entries = store.all().map((record) => ({
        id: record.name,
        region: record.region,
        type: record.type,
        version: current(record).version,
      }));
      return { 'AWS::SSM::Parameter': entries };
    },
  };
  return module;
};

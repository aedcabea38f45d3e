import { queryAction, queryCodec, queryParams, queryResult } from '../../protocols/query.js';
import type { InventoryEntry, ServiceModuleFactory } from '../../service-module.js';
import { StackEngine } from './engine/engine.js';
import { StackStore } from './model/store.js';
import type { CfnHandler } from './ops/call.js';
import * as changeSets from './ops/change-set-ops.js';
import { describeType } from './ops/describe-type.js';
import * as reads from './ops/read-ops.js';
import * as stacks from './ops/stack-ops.js';
import { cfnErrors } from './wire/errors.js';
import { Params } from './wire/params.js';

const XMLNS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

const HANDLERS: Readonly<Record<string, CfnHandler>> = {
  CreateStack: stacks.createStack,
  UpdateStack: stacks.updateStack,
  DeleteStack: stacks.deleteStack,
  DescribeStacks: stacks.describeStacks,
  ListStacks: stacks.listStacks,
  UpdateTerminationProtection: stacks.updateTerminationProtection,
  CancelUpdateStack: stacks.cancelUpdateStack,
  ContinueUpdateRollback: stacks.continueUpdateRollback,
  RollbackStack: stacks.rollbackStack,
  CreateChangeSet: changeSets.createChangeSet,
  DescribeChangeSet: changeSets.describeChangeSet,
  ExecuteChangeSet: changeSets.executeChangeSet,
  DeleteChangeSet: changeSets.deleteChangeSet,
  ListChangeSets: changeSets.listChangeSets,
  DescribeStackEvents: reads.describeStackEvents,
  DescribeStackResource: reads.describeStackResource,
  DescribeStackResources: reads.describeStackResources,
  ListStackResources: reads.listStackResources,
  GetTemplate: reads.getTemplate,
  GetTemplateSummary: reads.getTemplateSummary,
  ValidateTemplate: reads.validateTemplate,
  ListExports: reads.listExports,
  ListImports: reads.listImports,
  DescribeType: describeType,
};

const READ_ONLY = /^(Describe|List|Get|Validate)/;

/**
 * CloudFormation over the query protocol: stacks, change sets, events, exports, and the
 * registry's DescribeType. Stacks are deployed by the same per-type resource handlers the
 * sandbox's Cloud Control uses (`context.resources`); templates are evaluated by cdkd's pure
 * template evaluator (src/template), which holds no AWS or engine code.
 */
export const createCloudFormationService: ServiceModuleFactory = async (context) => {
  const store = await StackStore.load(context.storage);
  const engine = new StackEngine(context, store);
  await engine.recover();
  return {
    name: 'cloudformation',
    codec: queryCodec,
    operation: queryAction,
    isMutating: (operation) => !READ_ONLY.test(operation),
    async handle(request, operation) {
      const handler = HANDLERS[operation];
      if (!handler) throw cfnErrors.invalidAction(operation);
      const call = {
        request,
        params: new Params(queryParams(request)),
        scope: { region: request.region, accountId: request.accountId },
        engine,
      };
      const result = (await handler(call)).filter((field): field is string => field !== undefined);
      return queryResult(operation, XMLNS, result, request);
    },
    inventory() {
      const entries: InventoryEntry[] = store
        .all()
        .filter((stack) => stack.status !== 'DELETE_COMPLETE')
        .map((stack) => ({
          id: stack.stackName,
          stackId: stack.stackId,
          region: stack.region,
          status: stack.status,
          resources: Object.values(stack.resources).map((resource) => ({
            logicalId: resource.logicalId,
            type: resource.type,
            physicalId: resource.physicalId,
            status: resource.status,
            propertiesHash: resource.propertiesHash,
          })),
        }));
      return { 'AWS::CloudFormation::Stack': entries };
    },
    close: () => engine.close(),
  };
};

import { matchRoute, restJsonCodec, restJsonInput, restJsonResult } from '../../protocols/rest-json.js';
import type { InventoryEntry, ServiceModule, ServiceModuleFactory } from '../../service-module.js';
import { AsyncInvocations } from './async-invocations.js';
import type { LambdaCall, LambdaHandler } from './call.js';
import { CONFIG_READ_HANDLERS } from './config-reads.js';
import * as eventInvoke from './event-invoke-ops.js';
import * as functions from './function-ops.js';
import { functionResourceHandler } from './function-resource.js';
import { invoke, runQueued } from './invoke-ops.js';
import { lambdaInvoker, lambdaSyncInvoker } from '../../ports/index.js';
import { functionUrlIngress } from './function-urls/url-ingress.js';
import { invokeByArn } from './sync-invoke.js';
import { lambdaInvokerPort } from './invoker-port.js';
import { lambdaErrors } from './lambda-errors.js';
import * as layers from './layer-ops.js';
import { EventSourcePollers } from './event-sources/pollers.js';
import * as mappings from './mapping-ops.js';
import { mappingView } from './mapping-ops.js';
import { mappingResourceHandler } from './mapping-resource.js';
import * as permissions from './permission-ops.js';
import { sandboxRoleAges } from '../../policy/role-ages.js';
import { LAMBDA_ROUTES } from './routes.js';
import { FunctionRunner } from './runtime/function-runner.js';
import { LambdaStore } from './store.js';
import * as tags from './tag-ops.js';
import * as urls from './url-ops.js';
import * as versions from './version-ops.js';

const HANDLERS: Record<string, LambdaHandler> = {
  CreateFunction: functions.createFunction,
  GetFunction: functions.getFunction,
  GetFunctionConfiguration: functions.getFunctionConfiguration,
  UpdateFunctionCode: functions.updateFunctionCode,
  UpdateFunctionConfiguration: functions.updateFunctionConfiguration,
  DeleteFunction: functions.deleteFunction,
  TagResource: tags.tagResource,
  UntagResource: tags.untagResource,
  ListTags: tags.listTags,
  PutFunctionConcurrency: tags.putFunctionConcurrency,
  DeleteFunctionConcurrency: tags.deleteFunctionConcurrency,
  GetFunctionConcurrency: tags.getFunctionConcurrency,
  AddPermission: permissions.addPermission,
  RemovePermission: permissions.removePermission,
  GetPolicy: permissions.getPolicy,
  PublishVersion: versions.publishVersion,
  ListVersionsByFunction: versions.listVersionsByFunction,
  CreateAlias: versions.createAlias,
  GetAlias: versions.getAlias,
  ListAliases: versions.listAliases,
  UpdateAlias: versions.updateAlias,
  DeleteAlias: versions.deleteAlias,
  CreateEventSourceMapping: mappings.createEventSourceMapping,
  GetEventSourceMapping: mappings.getEventSourceMapping,
  ListEventSourceMappings: mappings.listEventSourceMappings,
  UpdateEventSourceMapping: mappings.updateEventSourceMapping,
  DeleteEventSourceMapping: mappings.deleteEventSourceMapping,
  PublishLayerVersion: layers.publishLayerVersion,
  GetLayerVersion: layers.getLayerVersion,
  ListLayerVersions: layers.listLayerVersions,
  DeleteLayerVersion: layers.deleteLayerVersion,
  CreateFunctionUrlConfig: urls.createFunctionUrlConfig,
  GetFunctionUrlConfig: urls.getFunctionUrlConfig,
  UpdateFunctionUrlConfig: urls.updateFunctionUrlConfig,
  DeleteFunctionUrlConfig: urls.deleteFunctionUrlConfig,
  PutFunctionEventInvokeConfig: eventInvoke.putFunctionEventInvokeConfig,
  UpdateFunctionEventInvokeConfig: eventInvoke.updateFunctionEventInvokeConfig,
  GetFunctionEventInvokeConfig: eventInvoke.getFunctionEventInvokeConfig,
  DeleteFunctionEventInvokeConfig: eventInvoke.deleteFunctionEventInvokeConfig,
  ListFunctionEventInvokeConfigs: eventInvoke.listFunctionEventInvokeConfigs,
  ...CONFIG_READ_HANDLERS,
};

const ROUTES_BY_OPERATION = new Map(LAMBDA_ROUTES.map((route) => [route.operation, route]));

/**
 * Lambda over REST-JSON. Invoke runs the function's code in a child process (see
 * runtime/function-runner.ts). Function state transitions (Pending → Active after create,
 * InProgress → Successful after an update) take the latency model's
 * `AWS::Lambda::Function` create / update delay; a role that has not propagated "cannot
 * be assumed" (see policy/role-ages.ts).
 */
export const createLambdaService: ServiceModuleFactory = async (context) => {
  const store = await LambdaStore.load(context.storage);
  const roles = sandboxRoleAges(context, 'lambda.amazonaws.com');
  const newCall = (
    region: string,
    input: Record<string, unknown>,
    labels: Record<string, string> = {},
    accountId = context.accountId,
  ): LambdaCall => ({
    store,
    context,
    roles,
    region,
    accountId,
    labels,
    query: new URLSearchParams(),
    input,
    now: Date.now(),
  });
  context.resources.register('AWS::Lambda::Function', functionResourceHandler(store, newCall));
  context.resources.register('AWS::Lambda::EventSourceMapping', mappingResourceHandler(store, newCall));
  const runner = new FunctionRunner(context, store);
  store.onFunctionChange = (arn, record) => runner.reconcile(record, arn);
  const queue = await AsyncInvocations.load(context.storage, (invocation) =>
    runQueued(newCall(invocation.region, {}), invocation, runner),
  );
  const invoker = lambdaInvokerPort(context, store, runner, queue);
  lambdaInvoker.expose(context, invoker);
  const pollers = new EventSourcePollers({
    context,
    store,
    invoke: (arn, payload) => invoker.invoke(arn, payload),
  });
  store.onMappingChange = () => pollers.sync();
  const invokeArn = (arn: string, payload: string, requestId?: string) =>
    invokeByArn(store, runner, arn, payload, requestId);
  lambdaSyncInvoker.expose(context, { invoke: (arn, payload) => invokeArn(arn, payload) });
  const module: ServiceModule = {
    name: 'lambda',
    ingress: functionUrlIngress(context, store, invokeArn),
    codec: restJsonCodec,
    operation: (request) => matchRoute(LAMBDA_ROUTES, request)?.operation ?? 'Unknown',
    isMutating: (operation) => ROUTES_BY_OPERATION.get(operation)?.mutating ?? false,
    async handle(request, operation) {
      const match = matchRoute(LAMBDA_ROUTES, request);
      const handler = HANDLERS[operation];
      if (!match || (!handler && operation !== 'Invoke')) throw lambdaErrors.unknownOperation();
      // Invoke's body is the event, not the operation's input.
      const hasInput = request.method !== 'GET' && request.method !== 'DELETE' && operation !== 'Invoke';
      const call = {
        ...newCall(request.region, hasInput ? restJsonInput(request) : {}, match.labels, request.accountId),
        query: request.query,
      };
      if (!handler) return invoke(call, request, { runner, queue });
      return restJsonResult(ROUTES_BY_OPERATION.get(operation)!.status, await handler(call));
    },
    started() {
      queue.resume();
      pollers.sync();
    },
    async close() {
      await pollers.close();
      queue.close();
      await runner.close();
      await queue.settled();
    },
    inventory() {
      const functionEntries: InventoryEntry[] = store.allFunctions().map((record) => ({
        id: record.name,
        region: record.region,
        arn: record.arn,
        versions: record.versions.map((version) => version.version),
        aliases: record.aliases.map((alias) => alias.name),
        permissions: Object.values(record.policies)
          .flat()
          .map((statement) => statement.Sid),
        url: record.urls.length > 0,
      }));
      const versionEntries = store.allFunctions().flatMap((record) =>
        record.versions.map((version) => ({
          id: `${record.arn}:${version.version}`,
          region: record.region,
        })),
      );
      const aliasEntries = store.allFunctions().flatMap((record) =>
        record.aliases.map((alias) => ({
          id: `${record.arn}:${alias.name}`,
          region: record.region,
          version: alias.functionVersion,
        })),
      );
      const permissionEntries = store.allFunctions().flatMap((record) =>
        Object.entries(record.policies).flatMap(([qualifier, statements]) =>
          statements.map((statement) => ({
            id: statement.Sid,
            region: record.region,
            function: record.name,
            qualifier,
          })),
        ),
      );
      const eventInvokeEntries = store.allFunctions().flatMap((record) =>
        (record.eventInvokeConfigs ?? []).map((config) => ({
          id: `${record.name}|${config.qualifier}`,
          region: record.region,
        })),
      );
      const urlEntries = store.allFunctions().flatMap((record) =>
        record.urls.map((url) => ({
          id: url.qualifier ? `${record.arn}:${url.qualifier}` : record.arn,
          region: record.region,
        })),
      );
      return {
        'AWS::Lambda::Function': functionEntries,
        'AWS::Lambda::Version': versionEntries,
        'AWS::Lambda::Alias': aliasEntries,
        'AWS::Lambda::Permission': permissionEntries,
        'AWS::Lambda::Url': urlEntries,
        'AWS::Lambda::EventInvokeConfig': eventInvokeEntries,
        'AWS::Lambda::EventSourceMapping': store.allMappings().map((mapping) => {
          const view = mappingView(mapping, undefined);
          return {
            id: mapping.uuid,
            region: mapping.region,
            functionArn: mapping.functionArn,
            eventSourceArn: mapping.eventSourceArn,
            state: view.State,
            batchSize: view.BatchSize,
            lastProcessingResult: view.LastProcessingResult,
          };
        }),
        'AWS::Lambda::LayerVersion': store
          .allLayerVersions()
          .filter((layer) => !layer.deleted)
          .map((layer) => ({
            id: `arn:aws:lambda:${layer.region}:${context.accountId}:layer:${layer.layerName}:${layer.version}`,
            region: layer.region,
          })),
      };
    },
  };
  return module;
};

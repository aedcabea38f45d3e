import type { AwsClients } from '../aws/client-factory.js';
import { probeEmptiness } from '../providers/emptiness/index.js';
import { describeResourceType } from '../aws/describe-type.js';
import { secretValueReader } from '../aws/secret-values.js';
import { ssmParameterReader } from '../aws/ssm-parameters.js';
import { EventLog } from '../state/event-log.js';
import type { StateBackend } from '../state/state-backend.js';
import { deployStack, type StackDeployResult } from './deploy-stack.js';
import { destroyStack, type StackDestroyResult } from './destroy-stack.js';
import { cleanLeftover, findLeftovers, type Leftover } from './scrub.js';
import { driftStack, type DriftMode, type DriftResult } from './drift-stack.js';
import { refreshObserved, type RefreshResult } from './refresh-observed.js';
import { dropFailedSegments, type DropFailedRequest, type DropFailedResult } from './drop-failed.js';
import {
  importCandidates,
  importStack,
  type ImportCandidate,
  type ImportChoice,
  type ImportedResource,
} from './import-stack.js';
import { rollbackStack, type RollbackRequest, type StackRollbackResult } from './rollback-stack.js';
import { sendableProperties } from './dynamic-references.js';
import type { EngineContext, StackIdentity } from './engine-context.js';
import type { EventSink } from './events.js';
import { ExportIndex } from './export-index.js';
import { NESTED_STACK_TYPE, NestedStackProvider } from './nested-stack-provider.js';
import type { ProviderRouter, RoutedProvider } from './provider-router.js';
import { RegistrySchemas } from './registry-schemas.js';
import type { RouteRequest as RegistryRouteRequest } from '../providers/registry.js';
import type { RoutingOptions } from '../providers/routing.js';
import type { DeployOptions, StackRequest } from './stack-request.js';
import type { EmptinessProber } from './stateful-preflight.js';

export interface EngineInputs {
  backend: StateBackend;
  clients: AwsClients;
  /** The provider registry: SDK providers and Cloud Control, taking the run's routing flags. */
  registry: Omit<ProviderRouter, 'route'> & { route(request: RegistryRouteRequest): RoutedProvider };
  events: EventSink;
  retry?: <T>(label: string, call: () => Promise<T>) => Promise<T>;
  /** Every region the run deploys to: the export index is loaded for each. */
  regions: readonly string[];
  /** Replaces the providers' emptiness probes (tests). */
  probeEmptiness?: EmptinessProber;
}

export interface Engine {
  deploy(request: StackRequest, options: DeployOptions): Promise<StackDeployResult>;
  destroy(stack: StackIdentity, options: DeployOptions): Promise<StackDestroyResult>;
  rollback(request: RollbackRequest): Promise<StackRollbackResult>;
  dropFailed(request: DropFailedRequest): Promise<DropFailedResult>;
  refreshObserved(stack: StackIdentity, options: { concurrency: number }): Promise<RefreshResult>;
  drift(stack: StackIdentity, options: { mode: DriftMode; concurrency: number }): Promise<DriftResult>;
  findLeftovers(): Promise<Leftover[]>;
  cleanLeftover(
    leftover: Leftover,
    input: { accountId: string; confirm(lines: string[]): Promise<boolean> },
  ): Promise<boolean>;
  importCandidates(request: StackRequest): Promise<ImportCandidate[]>;
  importResources(request: StackRequest, choices: readonly ImportChoice[]): Promise<ImportedResource[]>;
}

export async function createEngine(inputs: EngineInputs): Promise<Engine> {
  const indexes = new Map(
    await Promise.all(
      [...new Set(inputs.regions)].map(
        async (region) => [region, await ExportIndex.load(inputs.backend.store, region)] as const,
      ),
    ),
  );
  const retry = inputs.retry ?? ((_label, call) => call());
  const context: EngineContext = {
    backend: inputs.backend,
    clients: inputs.clients,
    exportsIn: (region) => {
      const index = indexes.get(region) ?? ExportIndex.from([]);
      indexes.set(region, index);
      return index;
    },
    events: inputs.events,
    eventLog: (stack, runId) =>
      new EventLog(inputs.backend.objects, inputs.backend.store.prefix, stack, runId),
    retry,
    parameterReader: (region) => ssmParameterReader(inputs.clients, region),
    sendable: (region) =>
      sendableProperties(
        ssmParameterReader(inputs.clients, region),
        secretValueReader(inputs.clients, region),
      ),
    routerFor: (stack, options) =>
      withNestedStacks(inputs.registry, nestedProvider(stack, options), options.routing ?? {}),
    probeEmptiness:
      inputs.probeEmptiness ??
      ((target, region) => probeEmptiness(target, { clients: inputs.clients, region })),
    registrySchemas: new RegistrySchemas(
      (region, type) => describeResourceType(inputs.clients, region, type, retry),
      (stack, message) => inputs.events({ kind: 'warning', stack, message }),
    ),
  };
  const nestedProvider = (stack: StackIdentity, options: DeployOptions) =>
    new NestedStackProvider(
      stack,
      options,
      (request, opts) => deployStack(context, request, opts),
      (child, opts) => destroyStack(context, child, opts),
      context,
    );
  return {
    deploy: (request, options) => deployStack(context, request, options),
    destroy: (stack, options) => destroyStack(context, stack, options),
    rollback: (request) => rollbackStack(context, request),
    dropFailed: (request) => dropFailedSegments(context, request),
    refreshObserved: (stack, options) => refreshObserved(context, stack, options),
    drift: (stack, options) => driftStack(context, stack, options),
    findLeftovers: () => findLeftovers(context),
    cleanLeftover: (leftover, input) => cleanLeftover(context, leftover, input),
    importCandidates: (request) => importCandidates(context, request),
    importResources: (request, choices) => importStack(context, request, choices),
  };
}

/** The registry with nested stacks served by the engine, and the run's routing flags applied per resource. */
function withNestedStacks(
  registry: EngineInputs['registry'],
  nested: NestedStackProvider,
  routing: RoutingOptions,
): ProviderRouter {
  return {
    route: (request) =>
      request.type === NESTED_STACK_TYPE
        ? { provider: nested, provisionedBy: nested.kind }
        : registry.route({
            ...request,
            pinCcApi: request.logicalId !== undefined && (routing.pinCcApi?.has(request.logicalId) ?? false),
            ...(routing.preferSdkRoute !== undefined && { preferSdkRoute: routing.preferSdkRoute }),
          }),
    providerFor: (type, provisionedBy) =>
      type === NESTED_STACK_TYPE ? nested : registry.providerFor(type, provisionedBy),
    canHandle: (type) => type === NESTED_STACK_TYPE || registry.canHandle(type),
    providerCanUpdate: (type, changed, provisionedBy) =>
      type === NESTED_STACK_TYPE || registry.providerCanUpdate(type, changed, provisionedBy),
    uncoveredBySdk: (type, properties) => registry.uncoveredBySdk(type, properties),
  };
}

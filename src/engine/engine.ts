import type { AwsClients } from '../aws/index.js';
import type {
  LiveAttributeReader,
  RouteRequest as RegistryRouteRequest,
  RoutingOptions,
} from '../providers/index.js';
import { describeResourceType } from '../aws/describe-type.js';
import { secretValueReader } from '../aws/secret-values.js';
import { ssmParameterReader } from '../aws/ssm-parameters.js';
import { EventLog } from '../state/event-log.js';
import type { StateBackend } from '../state/index.js';
import type { StackDeployResult } from './deploy/index.js';
import { deployStack } from './deploy/index.js';
import type { DestroyOptions, StackDestroyResult } from './destroy/index.js';
import type { CleanOutcome, Leftover } from './scrub/index.js';
import type { DriftOptions, DriftResult, RefreshResult } from './drift/index.js';
import type {
  DropFailedRequest,
  DropFailedResult,
  RollbackRequest,
  StackRollbackResult,
} from './journal/index.js';
import type { ImportCandidate, ImportChoice, ImportedResource, ImportOptions } from './import/index.js';
import { cloudFormationExportSource, sendableProperties } from './planning/index.js';
import type { EngineContext, StackIdentity } from './engine-context.js';
import { eventMessage, type CommandName, type IoHost } from '../messages/index.js';
import { ExportIndex } from './export-index.js';
import { NestedStackProvider } from './nested/index.js';
import { NESTED_STACK_TYPE } from '../resource-types/index.js';
import type { ProviderRouter, RoutedProvider } from '../provider-calls/index.js';
import { RegistrySchemas } from './registry-schemas.js';
import type { DeployOptions, StackRequest } from './stack-request.js';
import type { EmptinessProber } from './engine-context.js';

export interface EngineInputs {
  backend: StateBackend;
  clients: AwsClients;
  /** The provider registry: SDK providers and Cloud Control, taking the run's routing flags. */
  registry: Omit<ProviderRouter, 'route'> & { route(request: RegistryRouteRequest): RoutedProvider };
  /** Where events, warnings and questions go (the CLI's terminal host, a test's recording host). */
  io: IoHost;
  /** The command the engine works for, stamped on every message. */
  command: CommandName;
  retry?: <T>(label: string, call: () => Promise<T>) => Promise<T>;
  /** Every region the run deploys to: the export index is loaded for each. */
  regions: readonly string[];
  /** Replaces the providers' emptiness probes (tests). */
  probeEmptiness?: EmptinessProber;
  /** Replaces the live attribute reads (tests). */
  liveAttributes?: LiveAttributeReader;
}

export interface Engine {
  deploy(request: StackRequest, options: DeployOptions): Promise<StackDeployResult>;
  /** Deletes the old copies a deploy held for the importing stacks in `deployed` (held-copies.ts). */
  releaseHeld(request: StackRequest, deployed: ReadonlySet<string>, options: DeployOptions): Promise<void>;
  destroy(stack: StackIdentity, options: DeployOptions & DestroyOptions): Promise<StackDestroyResult>;
  rollback(request: RollbackRequest): Promise<StackRollbackResult>;
  dropFailed(request: DropFailedRequest): Promise<DropFailedResult>;
  refreshObserved(
    stack: StackIdentity,
    options: { concurrency: number; signal?: AbortSignal },
  ): Promise<RefreshResult>;
  drift(stack: StackIdentity, options: DriftOptions): Promise<DriftResult>;
  findLeftovers(): Promise<Leftover[]>;
  cleanLeftover(
    leftover: Leftover,
    input: { accountId: string; signal?: AbortSignal },
  ): Promise<CleanOutcome>;
  importCandidates(request: StackRequest): Promise<ImportCandidate[]>;
  importResources(
    request: StackRequest,
    choices: readonly ImportChoice[],
    options?: ImportOptions,
  ): Promise<ImportedResource[]>;
}

export async function createEngine(inputs: EngineInputs): Promise<Engine> {
  const retry = inputs.retry ?? ((_label, call) => call());
  // The stacks still on CloudFormation answer the imports cdkd's own stacks do not.
  const cloudFormation = (region: string) => cloudFormationExportSource(inputs.clients, region, retry);
  const indexes = new Map(
    await Promise.all(
      [...new Set(inputs.regions)].map(
        async (region) =>
          [region, await ExportIndex.load(inputs.backend.store, region, cloudFormation(region))] as const,
      ),
    ),
  );
  const context: EngineContext = {
    backend: inputs.backend,
    clients: inputs.clients,
    exportsIn: (region) => {
      const index = indexes.get(region) ?? ExportIndex.from([]).readingFrom(cloudFormation(region));
      indexes.set(region, index);
      return index;
    },
    io: inputs.io,
    command: inputs.command,
    events: (event) => void inputs.io.notify(eventMessage(inputs.command, event)),
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
      (async (target, region) =>
        // Loaded on the first stateful replacement, which few deploys have.
        (await import('../providers/emptiness/probes.js')).probeEmptiness(target, {
          clients: inputs.clients,
          region,
        })),
    liveAttributes: inputs.liveAttributes ?? {
      // Its EC2 and CloudFront clients load on the first live read, which few deploys make.
      read: async (request, readOptions) =>
        (await import('../providers/live-attributes/index.js'))
          .liveAttributeReader({ clients: inputs.clients, retry })
          .read(request, readOptions),
    },
    registrySchemas: new RegistrySchemas(
      (region, type) => describeResourceType(inputs.clients, region, type, retry),
      (stack, message) => context.events({ kind: 'warning', stack, message }),
    ),
  };
  const nestedProvider = (stack: StackIdentity, options: DeployOptions) =>
    new NestedStackProvider(
      stack,
      options,
      (request, opts) => deployStack(context, request, opts),
      async (child, opts) => (await import('./destroy/index.js')).destroyStack(context, child, opts),
      context,
    );
  // Each command's module loads when it runs: a deploy loads no destroy, drift, import or rollback code.
  return {
    deploy: (request, options) => deployStack(context, request, options),
    releaseHeld: async (request, deployed, options) =>
      (await import('./deploy/index.js')).releaseHeldCopies(context, request, deployed, options),
    destroy: async (stack, options) =>
      (await import('./destroy/index.js')).destroyStack(context, stack, options),
    rollback: async (request) => (await import('./journal/index.js')).rollbackStack(context, request),
    dropFailed: async (request) => (await import('./journal/index.js')).dropFailedSegments(context, request),
    refreshObserved: async (stack, options) =>
      (await import('./drift/index.js')).refreshObserved(context, stack, options),
    drift: async (stack, options) => (await import('./drift/index.js')).driftStack(context, stack, options),
    findLeftovers: async () => (await import('./scrub/index.js')).findLeftovers(context),
    cleanLeftover: async (leftover, input) =>
      (await import('./scrub/index.js')).cleanLeftover(context, leftover, input),
    importCandidates: async (request) =>
      (await import('./import/index.js')).importCandidates(context, request),
    importResources: async (request, choices, options) =>
      (await import('./import/index.js')).importStack(context, request, choices, options),
  };
}

/**
 * The registry with nested stacks served by the engine, and the run's routing flags applied per
 * resource; `providerFor` loads the type's provider first.
 */
function withNestedStacks(
  registry: EngineInputs['registry'],
  nested: NestedStackProvider,
  routing: RoutingOptions,
): ProviderRouter {
  const load = (types: Iterable<string>) => registry.load?.(types) ?? Promise.resolve();
  return {
    route: (request) =>
      request.type === NESTED_STACK_TYPE
        ? { provider: nested, provisionedBy: nested.kind }
        : registry.route({
            ...request,
            pinCcApi: request.logicalId !== undefined && (routing.pinCcApi?.has(request.logicalId) ?? false),
            ...(routing.preferSdkRoute !== undefined && { preferSdkRoute: routing.preferSdkRoute }),
          }),
    providerFor: async (type, provisionedBy) => {
      if (type === NESTED_STACK_TYPE) return nested;
      await load([type]);
      return registry.providerFor(type, provisionedBy);
    },
    load,
    canHandle: (type) => type === NESTED_STACK_TYPE || registry.canHandle(type),
    providerCanUpdate: (type, changed, provisionedBy) =>
      type === NESTED_STACK_TYPE || registry.providerCanUpdate(type, changed, provisionedBy),
    uncoveredBySdk: (type, properties) => registry.uncoveredBySdk(type, properties),
    sdkProviderFor: async (type) => {
      await load([type]);
      return registry.sdkProviderFor?.(type);
    },
  };
}

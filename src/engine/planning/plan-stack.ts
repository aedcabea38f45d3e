import type { AwsClients } from '../../aws/index.js';
import { CdkdError } from '../../errors.js';
import {
  buildPlan,
  movingExports,
  registryTypesToRead,
  type MovingExport,
  type Plan,
  type StatefulVerdict,
} from '../../plan/index.js';
import { refuseInvalidEvaluatedProperties } from '../../plan/validate-properties.js';
import {
  prepareTemplate,
  validateTemplate,
  type ExternalResolver,
  type PreparedTemplate,
} from '../../template/index.js';
import type { OutputRecord } from '../../state/index.js';
import { CDK_METADATA_TYPE } from '../../resource-types/index.js';
import { desiredResources, isUnresolved } from './desired-resources.js';
import type { ExportIndex } from '../export-index.js';
import {
  refuseAmbiguousImports,
  refuseChangedExportsInUse,
  refuseExportsCloudFormationHolds,
  refuseExportsOfOtherStacks,
  refuseOwnExportsCloudFormationImports,
  refuseRemovedExportsInUse,
  refuseStrandedExports,
} from './export-guards.js';
import { importedNames, ownExportChanges } from './cloudformation-exports.js';
import { noteImportReaders } from './import-readers.js';
import { declaredExportNames, declaredExports, declaredExportValues } from './outputs.js';
import { noteExportsKnownAfterDeploy, plannedExportValues } from './planned-exports.js';
import { checkNamesAtPlanning } from './plan-name-checks.js';
import { checkRoutes, routeDesired } from './plan-routing.js';
import type { ProviderRouter } from '../../provider-calls/index.js';
import { refuseUnreachableRecreates } from './recreate-layer.js';
import type { RegistrySchemas } from '../registry-schemas.js';
import type { DeployOptions, NestedTemplate, StackRequest } from '../stack-request.js';
import type { StackState } from '../../stack-state/index.js';
import { liveAttributesFor, type LiveAttributes } from './live-attributes.js';
import type { LiveAttributeReader } from '../../providers/index.js';
import { statefulPreflight, type PreflightServices } from './stateful-preflight.js';
import { holdsPendingValue, stateResolver } from './state-resolver.js';

export interface PlannedStack {
  prepared: PreparedTemplate;
  masked: PreparedTemplate;
  plan: Plan;
  /** Export names the template reads through Fn::ImportValue (those unchanged resources read too). */
  imported: Set<string>;
  /** The stateful guard's verdict per recreated resource (DATA LOSS / UNKNOWN rows). */
  stateful: StatefulVerdict[];
  /** Exports other stacks import that a recreated target moves; each importer deploys after this stack. */
  moving: MovingExport[];
}

export interface PlanningServices extends PreflightServices {
  clients: AwsClients;
  retry<T>(label: string, call: () => Promise<T>): Promise<T>;
  routerFor(stack: StackRequest, options: DeployOptions): ProviderRouter;
  exportsIn(region: string): ExportIndex;
  parameterReader(region: string): (name: string) => Promise<string>;
  liveAttributes: LiveAttributeReader;
  registrySchemas: RegistrySchemas;
}

/**
 * Everything decided before a resource is touched: parameters, rules and
 * conditions; the plan; and the refusals (unsupported types, stateful
 * replacements, an export another stack still imports).
 */
export async function planStack(
  services: PlanningServices,
  request: StackRequest,
  state: StackState,
  options: DeployOptions,
): Promise<PlannedStack> {
  const prepared = await prepareRequest(services, request);
  const router = services.routerFor(request, options);
  const masked = prepared.withMaskedParameters();
  const exports = services.exportsIn(request.region);
  const reads = importedNames(request.template);
  await exports.readCloudFormationFor(reads.names, reads.dynamic);
  const imported = new Set<string>();
  const resolver = stateResolver(state, exports, { pending: true, imported });
  const live = liveAttributesFor(services, state, request, options);
  const desired = await desiredResources(
    prepared,
    stateResolver(state, exports, { pending: true, imported, reveal: true }),
    live,
  );
  refuseAmbiguousImports(request.stackName, exports, imported);
  refuseInvalidEvaluatedProperties(
    request.stackName,
    desired.filter((resource) => !isUnresolved(resource.properties)),
  );
  const recorded = state.document.resources;
  // Only the providers of changed resources load (routeDesired): a plan of no-ops loads none.
  const routed = await routeDesired(router, desired, recorded);
  // Read before planning, so the plan stays pure; only types with a change ask.
  const registry = await services.registrySchemas.forTypes(
    request,
    registryTypesToRead({ desired: routed.desired, recorded }),
  );
  const plan = buildPlan(
    {
      desired: routed.desired,
      recorded,
      // A nested stack deploys when its row runs, after its parent's earlier resources: check its whole tree now.
      nested: nestedResources(request.nested),
      ...(options.recreateVia && { recreateVia: options.recreateVia }),
      ...(options.crossStack && {
        movingImports: options.crossStack.movingImports(state.document.stackName),
      }),
    },
    {
      canHandle: (type) => router.canHandle(type),
      providerCanUpdate: (type, changed) => router.providerCanUpdate(type, changed),
      registry,
    },
  );
  await checkRoutes(plan, routed, { router, desired, recorded });
  await refuseUnreachableRecreates(plan, router);
  const declared = declaredExportNames(masked, resolver);
  refuseExportsOfOtherStacks(state, exports, declared);
  refuseRemovedExportsInUse(state, exports, declared);
  const stackName = state.document.stackName;
  refuseChangedExportsInUse(
    stackName,
    exports,
    await declaredExportValues(
      masked,
      resolver,
      (name) => exports.isImportedElsewhere(name, stackName),
      live,
    ),
  );
  const moving = movingExports(declaredExports(masked, resolver), plan.operations, desired, {
    importersOf: (name) => exports.importersOf(name, stackName),
    deploysAfter: (importer) => options.crossStack?.deploysAfter(importer, stackName) ?? false,
  });
  refuseStrandedExports(stackName, moving);
  await refuseExportsCloudFormationHolds(state, exports, declared);
  await refuseOwnExportsCloudFormationImports(
    stackName,
    exports,
    await ownExportValues(masked, resolver, live, state.document.outputs),
  );
  options.crossStack?.announce(stackName, moving);
  const importReaders = options.crossStack ? noteImportReaders(plan, moving, options.crossStack) : [];
  noteExportsKnownAfterDeploy(plan, desired, exports);
  const sources = [...imported].sort().flatMap((exportName) => {
    const source = exports.sourceOf(exportName);
    return source ? [{ exportName, ...source }] : [];
  });
  if (sources.length > 0) plan.imports = sources;
  if (!options.preflight) {
    await checkNamesAtPlanning({
      plan,
      desired,
      router,
      context: {
        clients: services.clients,
        accountId: request.accountId,
        region: request.region,
        stackName: request.stackName,
        ...(options.prefixUserSuppliedNames ? { prefixUserSuppliedNames: true } : {}),
      },
      resources: state.document.resources,
      stateName: request.stateName,
      replace: options.replace === true,
      retry: services.retry,
      concurrency: options.concurrency,
    });
  }
  // Last: the confirmation it may ask for comes after every refusal.
  const stateful = await statefulPreflight(
    services,
    { request, state, plan, desired, importReaders },
    options,
  );
  return { prepared, masked, plan, imported, stateful, moving };
}

/** The stack's template checked and prepared: parameters (SSM-typed ones read), rules and conditions. */
export async function prepareRequest(
  services: Pick<PlanningServices, 'parameterReader'>,
  request: StackRequest,
): Promise<PreparedTemplate> {
  const template = validateTemplate(request.template, `${request.stackName} template`);
  refuseUnsupportedTransforms(request.stackName, template.transforms);
  return prepareTemplate(template, {
    pseudo: { accountId: request.accountId, region: request.region, stackName: request.stackName },
    parameters: request.parameters ?? {},
    ssmParameter: services.parameterReader(request.region),
  });
}

/**
 * The recorded exports this deploy removes or changes: a value known only after deploy is read
 * live first (an attribute state lacks), so only a value that really moves counts.
 */
async function ownExportValues(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
  live: LiveAttributes,
  recorded: Record<string, OutputRecord>,
) {
  const planned = plannedExportValues(masked, resolver);
  const unknown = new Set([...planned].filter(([, value]) => holdsPendingValue(value)).map(([name]) => name));
  if (unknown.size > 0)
    for (const [name, value] of await declaredExportValues(masked, resolver, (n) => unknown.has(n), live))
      planned.set(name, value);
  return ownExportChanges(recorded, planned);
}

/** The only transform cdkd evaluates itself; macros such as AWS::Serverless run inside CloudFormation. */
const SUPPORTED_TRANSFORMS = new Set(['AWS::LanguageExtensions']);

function refuseUnsupportedTransforms(stackName: string, transforms: readonly string[]): void {
  const unsupported = transforms.filter((transform) => !SUPPORTED_TRANSFORMS.has(transform));
  if (unsupported.length === 0) return;
  throw new CdkdError(
    'TRANSFORM_UNSUPPORTED',
    `Stack ${stackName} uses the transform ${unsupported.join(', ')}, which only CloudFormation can expand.`,
    {
      hint: 'Deploy this stack with the CDK CLI, or express it without the transform (e.g. plain Lambda resources instead of AWS::Serverless).',
    },
  );
}

/**
 * Every resource of every nested template below a stack that its own plan will deploy
 * (CDK's metadata record is skipped there as at top level), named by its path (`Child/Grandchild/Id`).
 */
function nestedResources(
  nested: ReadonlyMap<string, NestedTemplate> | undefined,
  prefix = '',
): Array<{ logicalId: string; type: string }> {
  return [...(nested ?? [])].flatMap(([childId, child]) => {
    const path = `${prefix}${childId}/`;
    const resources = Object.entries((child.template.Resources ?? {}) as Record<string, { Type?: unknown }>)
      .map(([logicalId, resource]) => ({ logicalId: `${path}${logicalId}`, type: String(resource.Type) }))
      .filter((resource) => resource.type !== CDK_METADATA_TYPE);
    return [...resources, ...nestedResources(child.nested, path)];
  });
}

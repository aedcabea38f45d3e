import { CdkdError } from '../errors.js';
import { buildPlan, checkStatefulReplacements, refuseUnsupportedTypes, type Plan } from '../plan/index.js';
import { prepareTemplate, validateTemplate, type PreparedTemplate } from '../template/index.js';
import { desiredResources } from './desired-resources.js';
import type { ExportIndex } from './export-index.js';
import { declaredExportNames } from './outputs.js';
import type { ProviderRouter } from './provider-router.js';
import type { DeployOptions, NestedTemplate, StackRequest } from './stack-request.js';
import type { StackState } from './stack-state.js';
import { stateResolver } from './state-resolver.js';

export interface PlannedStack {
  prepared: PreparedTemplate;
  masked: PreparedTemplate;
  plan: Plan;
  /** Export names the template reads through Fn::ImportValue (those unchanged resources read too). */
  imported: Set<string>;
}

export interface PlanningServices {
  routerFor(stack: StackRequest, options: DeployOptions): ProviderRouter;
  exportsIn(region: string): ExportIndex;
  parameterReader(region: string): (name: string) => Promise<string>;
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
  // A nested stack deploys when its row runs, after its parent's earlier resources: check its whole tree now.
  refuseUnsupportedTypes(nestedResources(request.nested), (type) => router.canHandle(type));
  const masked = prepared.withMaskedParameters();
  const exports = services.exportsIn(request.region);
  const imported = new Set<string>();
  const resolver = stateResolver(state, exports, { pending: true, imported });
  const plan = buildPlan(
    { desired: desiredResources(prepared, resolver), recorded: state.document.resources },
    {
      canHandle: (type) => router.canHandle(type),
      providerCanUpdate: (type, changed) => router.providerCanUpdate(type, changed),
    },
  );
  checkStatefulReplacements({
    operations: plan.operations,
    recorded: state.document.resources,
    forceStatefulRecreation: options.forceStatefulRecreation ?? false,
  });
  refuseRemovedExportsInUse(state, exports, declaredExportNames(masked, resolver));
  return { prepared, masked, plan, imported };
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

/** Every resource of every nested template below a stack, named by its path (`Child/Grandchild/Id`). */
function nestedResources(
  nested: ReadonlyMap<string, NestedTemplate> | undefined,
  prefix = '',
): Array<{ logicalId: string; type: string }> {
  return [...(nested ?? [])].flatMap(([childId, child]) => {
    const path = `${prefix}${childId}/`;
    const resources = Object.entries(
      (child.template.Resources ?? {}) as Record<string, { Type?: unknown }>,
    ).map(([logicalId, resource]) => ({ logicalId: `${path}${logicalId}`, type: String(resource.Type) }));
    return [...resources, ...nestedResources(child.nested, path)];
  });
}

function refuseRemovedExportsInUse(
  state: StackState,
  exports: ExportIndex,
  declared: ReadonlySet<string>,
): void {
  const removed = Object.values(state.document.outputs).flatMap((output) =>
    output.exportName !== undefined && !declared.has(output.exportName) ? [output.exportName] : [],
  );
  const inUse = exports.stillImported(state.document.stackName, removed);
  if (inUse.length === 0) return;
  throw new CdkdError(
    'EXPORT_IN_USE',
    `Stack ${state.document.stackName} would remove exports other stacks still import: ${inUse.join('; ')}.`,
    { hint: 'Deploy the importing stacks without the Fn::ImportValue first, then deploy this stack.' },
  );
}

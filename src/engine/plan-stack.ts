import { CdkdError } from '../errors.js';
import { buildPlan, checkStatefulReplacements, type Plan } from '../plan/index.js';
import { prepareTemplate, validateTemplate, type PreparedTemplate } from '../template/index.js';
import { CDK_METADATA_TYPE, desiredResources } from './desired-resources.js';
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
  const template = validateTemplate(request.template, `${request.stackName} template`);
  refuseUnsupportedTransforms(request.stackName, template.transforms);
  const prepared = await prepareTemplate(template, {
    pseudo: { accountId: request.accountId, region: request.region, stackName: request.stackName },
    parameters: request.parameters ?? {},
    ssmParameter: services.parameterReader(request.region),
  });
  const router = services.routerFor(request, options);
  const masked = prepared.withMaskedParameters();
  const exports = services.exportsIn(request.region);
  const imported = new Set<string>();
  const resolver = stateResolver(state, exports, { pending: true, imported });
  const plan = buildPlan(
    {
      desired: desiredResources(prepared, resolver),
      recorded: state.document.resources,
      // A nested stack deploys when its row runs, after its parent's earlier resources: check its whole tree now.
      nested: nestedResources(request.nested),
    },
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

import {
  isUnresolved,
  UNRESOLVED_PROPERTIES,
  type DesiredResource,
  type ResourceRead,
} from '../../plan/index.js';
import {
  collectImports,
  collectReferences,
  rootPath,
  type ExternalResolver,
  type PreparedTemplate,
  type TemplatePath,
} from '../../template/index.js';
import { CDK_METADATA_TYPE } from '../../resource-types/index.js';
import { isLiveAttributeRefusal, type LiveAttributes } from './live-attributes.js';
import { holdsPendingValue } from './state-resolver.js';

export { isUnresolved, UNRESOLVED_PROPERTIES };

export function deployableResources(prepared: PreparedTemplate): string[] {
  return prepared.activeResources.filter(
    (id) => prepared.template.resources.get(id)?.type !== CDK_METADATA_TYPE,
  );
}

/**
 * The template's resources as the planner wants them: properties resolved
 * against recorded state, dependencies, policies, and which resources each
 * reads through which property. A resource that reads one not made yet cannot
 * be resolved now; the engine re-resolves it when its turn comes.
 */
export async function desiredResources(
  prepared: PreparedTemplate,
  resolver: ExternalResolver,
  live?: LiveAttributes,
): Promise<DesiredResource[]> {
  const graph = prepared.dependencyGraph();
  const deployable = new Set(deployableResources(prepared));
  const desired: DesiredResource[] = [];
  for (const logicalId of deployable) {
    const definition = prepared.template.resources.get(logicalId)!;
    desired.push({
      logicalId,
      type: definition.type,
      properties: await livePlanningProperties(prepared, logicalId, resolver, live),
      dependencies: graph.dependencies(logicalId).filter((id) => deployable.has(id)),
      ...prepared.resourcePolicies(logicalId),
      reads: readsOf(definition.properties, logicalId, prepared.conditions),
    });
  }
  return desired;
}

/**
 * Planning properties with the attributes records lack read live, so a reader of one plans as
 * what it is; a refused read leaves the resource unresolved, and the deploy refuses it when
 * its turn comes.
 */
async function livePlanningProperties(
  prepared: PreparedTemplate,
  logicalId: string,
  resolver: ExternalResolver,
  live: LiveAttributes | undefined,
): Promise<Record<string, unknown>> {
  if (!live) return planningProperties(prepared, logicalId, resolver);
  try {
    return await live.evaluate(resolver, (r) => planningProperties(prepared, logicalId, r));
  } catch (error) {
    if (isLiveAttributeRefusal(error)) return { ...UNRESOLVED_PROPERTIES };
    throw error;
  }
}

/** A resource's properties resolved now, or the unresolved marker while it reads one not made yet. */
export function planningProperties(
  prepared: PreparedTemplate,
  logicalId: string,
  resolver: ExternalResolver,
): Record<string, unknown> {
  try {
    const properties = prepared.evaluateResourceProperties(logicalId, resolver);
    return holdsPendingValue(properties) ? { ...UNRESOLVED_PROPERTIES } : properties;
  } catch (error) {
    // A placeholder for a resource not made yet can fail Fn::Select / Fn::Split; real errors
    // surface when the resource is evaluated for real, after its dependencies exist.
    if (referencesUnmade(prepared, logicalId, resolver)) return { ...UNRESOLVED_PROPERTIES };
    throw error;
  }
}

function referencesUnmade(
  prepared: PreparedTemplate,
  logicalId: string,
  resolver: ExternalResolver,
): boolean {
  return prepared
    .dependencyGraph()
    .dependencies(logicalId)
    .some((id) => holdsPendingValue(resolver.ref(id)));
}

function readsOf(
  properties: unknown,
  logicalId: string,
  conditions: ReadonlyMap<string, boolean>,
): ResourceRead[] {
  const base = rootPath('Resources', logicalId, 'Properties');
  const condition = (name: string) => conditions.get(name);
  const reads: ResourceRead[] = collectReferences(properties, base, condition)
    .filter((reference) => !reference.untaken)
    .map((reference) => ({
      target: reference.target,
      property: topLevelProperty(reference.path),
      via: reference.readsAttribute ? 'getatt' : 'ref',
    }));
  const imports = collectImports(properties, base, condition).map((read): ResourceRead => ({
    target: read.name,
    property: topLevelProperty(read.path),
    via: 'import',
  }));
  return [...reads, ...imports];
}

/** The first key under `Properties` on the path to a reference. */
export function topLevelProperty(path: TemplatePath): string {
  const keys: Array<string | number> = [];
  for (let p: TemplatePath | undefined = path; p; p = p.parent) keys.unshift(p.key);
  return String(keys[3] ?? '');
}

import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';
import { DependencyGraph } from './graph.js';
import type { ResourceDefinition, Template } from './model.js';
import { childPath, formatPath, rootPath, type TemplatePath } from './path.js';
import { collectReferences } from './references.js';

/** Resources whose Condition is false (logical id → condition), given the condition values. */
export function removedResources(
  template: Template,
  conditions: ReadonlyMap<string, boolean>,
): Map<string, string> {
  const removed = new Map<string, string>();
  for (const [id, resource] of template.resources) {
    if (resource.condition === undefined) continue;
    const value = conditions.get(resource.condition);
    if (value === undefined) {
      throw new TemplateEvaluationError(
        TemplateErrorCode.Invalid,
        `Resources.${id}.Condition`,
        `condition "${resource.condition}" is not defined in the Conditions section`,
      );
    }
    if (!value) removed.set(id, resource.condition);
  }
  return removed;
}

/** Resource attributes whose references order creation (Metadata and Condition do not). */
const ATTRIBUTES: ReadonlyArray<readonly [keyof ResourceDefinition, string]> = [
  ['properties', 'Properties'],
  ['creationPolicy', 'CreationPolicy'],
  ['updatePolicy', 'UpdatePolicy'],
  ['deletionPolicy', 'DeletionPolicy'],
  ['updateReplacePolicy', 'UpdateReplacePolicy'],
];

/**
 * The dependency graph of the resources a deploy creates: edges from DependsOn and from
 * Ref / Fn::GetAtt / Fn::Sub anywhere in those attributes. A reference to a resource a
 * false condition removed is an error unless it sits in an Fn::If branch not taken.
 */
export function buildDependencyGraph(
  template: Template,
  conditions: ReadonlyMap<string, boolean>,
): DependencyGraph {
  const removed = removedResources(template, conditions);
  const nodes = [...template.resources.keys()].filter((id) => !removed.has(id));
  const edges: Array<[string, string]> = [];
  const conditionValue = (name: string) => conditions.get(name);

  const link = (from: string, to: string, how: string, path: TemplatePath | string, untaken: boolean) => {
    const where = typeof path === 'string' ? path : formatPath(path);
    const removedBy = removed.get(to);
    if (removedBy !== undefined) {
      if (untaken) return;
      throw new TemplateEvaluationError(
        TemplateErrorCode.InvalidReference,
        where,
        `${from} ${how} ${to}, which is not deployed because its condition ${removedBy} is false`,
        { hint: `Give ${from} the same condition, or guard the reference with Fn::If on ${removedBy}.` },
      );
    }
    if (!template.resources.has(to)) {
      throw new TemplateEvaluationError(
        TemplateErrorCode.InvalidReference,
        where,
        `${from} ${how} "${to}", which is not a resource${how === 'depends on' ? '' : ' or parameter'} of this template`,
      );
    }
    edges.push([from, to]);
  };

  for (const id of nodes) {
    const resource = template.resources.get(id)!;
    for (const target of resource.dependsOn)
      link(id, target, 'depends on', `Resources.${id}.DependsOn`, false);
    for (const [field, name] of ATTRIBUTES) {
      const value = resource[field];
      if (value === undefined) continue;
      const refs = collectReferences(value, childPath(rootPath('Resources', id), name), conditionValue);
      for (const ref of refs) {
        if (template.parameters.has(ref.target)) continue;
        link(id, ref.target, `references (${ref.via})`, ref.path, ref.untaken);
      }
    }
  }
  return DependencyGraph.fromEdges(nodes, edges);
}

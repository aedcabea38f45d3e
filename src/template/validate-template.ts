import { logicalIdProblem } from '../cloudformation-names.js';
import { TemplateEvaluationError } from './errors.js';
import { buildTemplate, isPlainObject } from './model.js';
import { isIntrinsic } from './evaluator.js';
import { intrinsicProblems, type ReferenceScope, type TemplateProblem } from './validate-intrinsics.js';

/** The sections whose member names are logical ids, which CloudFormation requires alphanumeric. */
const NAMED_SECTIONS = ['Parameters', 'Conditions', 'Mappings', 'Resources', 'Outputs'] as const;

/**
 * What CloudFormation refuses in a template before it runs anything, in its wording where it
 * has one: no Resources, logical ids that are not alphanumeric or too long, intrinsic syntax
 * and the names intrinsics point at, DependsOn and Condition targets, and the structural
 * checks of buildTemplate. Works on any parsed JSON; returns every problem found.
 */
export function templateProblems(raw: unknown): TemplateProblem[] {
  if (!isPlainObject(raw)) return [{ path: '', message: 'a template must be a JSON object' }];
  const problems: TemplateProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const section = (name: string): Record<string, unknown> =>
    isPlainObject(raw[name]) ? (raw[name] as Record<string, unknown>) : {};

  const resources = section('Resources');
  if (raw.Resources === undefined || (isPlainObject(raw.Resources) && Object.keys(resources).length === 0)) {
    add('Resources', 'At least one Resources member must be defined');
  } else if (!isPlainObject(raw.Resources)) {
    add('Resources', 'must be an object');
  }
  for (const name of NAMED_SECTIONS) {
    for (const id of Object.keys(section(name))) {
      const problem = logicalIdProblem(id);
      if (problem !== undefined) add(`${name}.${id}`, `${singular(name)} name ${quote(id)} ${problem}`);
    }
  }

  const scope: ReferenceScope = {
    parameters: new Set(Object.keys(section('Parameters'))),
    resources: new Set(Object.keys(resources)),
    conditions: new Set(Object.keys(section('Conditions'))),
    resourcesAllowed: true,
  };
  for (const [name, condition] of Object.entries(section('Conditions'))) {
    intrinsicProblems(condition, `Conditions.${name}`, { ...scope, resourcesAllowed: false }, problems);
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (!isPlainObject(resource)) continue;
    const path = `Resources.${id}`;
    intrinsicProblems(resource.Properties, `${path}.Properties`, scope, problems);
    for (const dependency of dependsOn(resource.DependsOn)) {
      if (!scope.resources.has(dependency)) {
        add(
          `${path}.DependsOn`,
          `Unresolved resource dependencies [${dependency}] in the Resources block of the template`,
        );
      }
    }
    conditionName(resource.Condition, `${path}.Condition`, scope, add);
  }
  for (const [name, output] of Object.entries(section('Outputs'))) {
    if (!isPlainObject(output)) continue;
    const path = `Outputs.${name}`;
    intrinsicProblems(output.Value, `${path}.Value`, scope, problems);
    intrinsicProblems(output.Export, `${path}.Export`, scope, problems);
    const exportName = isPlainObject(output.Export) ? output.Export.Name : undefined;
    if (exportName !== undefined && typeof exportName !== 'string' && !isIntrinsic(exportName)) {
      add(`${path}.Export.Name`, 'an export name must be a string');
    }
    conditionName(output.Condition, `${path}.Condition`, scope, add);
  }
  // The structural checks the evaluator relies on; they stop at their first problem.
  if (problems.length === 0) {
    try {
      buildTemplate(raw);
    } catch (error) {
      if (!(error instanceof TemplateEvaluationError)) throw error;
      add(error.path, error.detail);
    }
  }
  return problems;
}

function dependsOn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function conditionName(
  value: unknown,
  path: string,
  scope: ReferenceScope,
  add: (path: string, message: string) => void,
): void {
  if (typeof value === 'string' && !scope.conditions.has(value)) {
    add(path, `Unresolved dependencies [${value}]: no condition has that name`);
  }
}

function singular(section: string): string {
  return section.replace(/s$/, '');
}

/** Quoted with JSON escapes, and cut short: a 300-character id need not be printed whole. */
function quote(id: string): string {
  return JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
}

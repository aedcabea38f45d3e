import { CdkdError } from '../errors.js';
import { isPlainObject } from '../template/model.js';
import { isIntrinsic } from '../template/evaluator.js';
import type { TemplateProblem } from '../template/index.js';
import { type PropertyKind, schemaFor } from '../resource-types/index.js';

const KIND_NAMES: Record<PropertyKind, string> = {
  s: 'String',
  n: 'Number',
  b: 'Boolean',
  a: 'JSONArray',
  l: 'JSONArray',
  t: 'JSONArray',
  o: 'JSONObject',
};

/**
 * Each resource's top-level properties against the bundled schema index, before anything is
 * evaluated: a required property missing, or a literal value of the wrong kind, in
 * CloudFormation's wording. A value given by an intrinsic function, or holding a dynamic
 * reference, is only known after evaluation and is not judged; nor is any type the index
 * does not know (Custom::*).
 */
export function propertyProblems(resources: Record<string, unknown>): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  for (const [id, resource] of Object.entries(resources)) {
    if (!isPlainObject(resource) || typeof resource.Type !== 'string') continue;
    const schema = schemaFor(resource.Type);
    const properties = resource.Properties ?? {};
    if (!schema || !isPlainObject(properties) || isIntrinsic(properties)) continue;
    const path = `Resources.${id}.Properties`;
    const missing = schema.requiredProperties.filter((name) => !Object.hasOwn(properties, name));
    if (missing.length > 0) {
      problems.push({
        path,
        message: `Properties validation failed for resource ${id} with message: #: required key [${missing.join(', ')}] not found`,
      });
    }
    for (const [name, value] of Object.entries(properties)) {
      const kind = schema.propertyKinds.get(name);
      if (kind === undefined) continue;
      for (const [pointer, wanted, found] of mismatches(kind, value, name)) {
        problems.push({
          path: `${path}.${pointer.replaceAll('/', '.')}`,
          message: `Properties validation failed for resource ${id} with message: #/${pointer}: expected type: ${wanted}, found: ${found}`,
        });
      }
    }
  }
  return problems;
}

/**
 * `[JSON pointer, expected, found]` for `value` and, in a list of strings or of tags, each
 * element that is not what the schema says.
 */
function mismatches(kind: PropertyKind, value: unknown, pointer: string): Array<[string, string, string]> {
  const found = mismatch(kind, value);
  if (found !== undefined) return [[pointer, KIND_NAMES[kind], found]];
  if ((kind !== 'l' && kind !== 't') || !Array.isArray(value)) return [];
  return value.flatMap((element, i): Array<[string, string, string]> => {
    if (kind === 'l') {
      const wrong = mismatch('s', element);
      return wrong === undefined ? [] : [[`${pointer}/${i}`, 'String', wrong]];
    }
    const wrong = mismatch('o', element);
    if (wrong !== undefined) return [[`${pointer}/${i}`, 'JSONObject', wrong]];
    if (!isPlainObject(element) || isIntrinsic(element)) return [];
    return (['Key', 'Value'] as const).flatMap((field): Array<[string, string, string]> => {
      const at = `${pointer}/${i}/${field}`;
      if (!Object.hasOwn(element, field)) return field === 'Key' ? [[at, 'String', 'nothing']] : [];
      const wrongField = mismatch('s', element[field]);
      return wrongField === undefined ? [] : [[at, 'String', wrongField]];
    });
  });
}

/** What `value` is when it is not of `kind`, or undefined when it is (or cannot be told yet). */
function mismatch(kind: PropertyKind, value: unknown): string | undefined {
  if (isIntrinsic(value)) return undefined;
  if (typeof value === 'string' && value.includes('{{resolve:')) return undefined;
  const found = describe(value);
  switch (kind) {
    case 's':
      return ['String', 'Number', 'Boolean'].includes(found) ? undefined : found;
    case 'n':
      if (found === 'Number') return undefined;
      return found === 'String' && value !== '' && Number.isFinite(Number(value)) ? undefined : found;
    case 'b':
      if (found === 'Boolean') return undefined;
      return found === 'String' && /^(true|false)$/i.test(value as string) ? undefined : found;
    case 'a':
    case 'l':
    case 't':
      return found === 'JSONArray' ? undefined : found;
    case 'o':
      return found === 'JSONObject' ? undefined : found;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'JSONArray';
  if (value === null) return 'Null';
  if (typeof value === 'object') return 'JSONObject';
  return typeof value === 'string' ? 'String' : typeof value === 'number' ? 'Number' : 'Boolean';
}

/**
 * The same checks on a stack's evaluated properties, where an intrinsic's value is known
 * (parameters, mappings, imports, resources already made): refused before any resource is
 * touched. `resources` holds only those whose properties resolved in full.
 */
export function refuseInvalidEvaluatedProperties(
  stackName: string,
  resources: ReadonlyArray<{ logicalId: string; type: string; properties: Record<string, unknown> }>,
): void {
  const problems = propertyProblems(
    Object.fromEntries(resources.map((r) => [r.logicalId, { Type: r.type, Properties: r.properties }])),
  );
  if (problems.length === 0) return;
  throw new CdkdError(
    'TEMPLATE_INVALID',
    `Stack ${stackName}'s evaluated properties are invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was deployed): ${problems
      .map((problem) => `${problem.path}: ${problem.message}`)
      .join('; ')}.`,
    { hint: 'Fix the template or the parameter values it reads; cdkd refuses what CloudFormation would.' },
  );
}

import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';

/** A CloudFormation parameter declaration, as written. */
export interface ParameterDefinition {
  readonly type: string;
  readonly default?: unknown;
  readonly allowedValues?: readonly unknown[];
  readonly allowedPattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minValue?: number;
  readonly maxValue?: number;
  readonly noEcho: boolean;
  readonly description?: string;
  readonly constraintDescription?: string;
}

export interface ResourceDefinition {
  readonly logicalId: string;
  readonly type: string;
  /** Unevaluated: may hold intrinsics. */
  readonly properties: Readonly<Record<string, unknown>>;
  readonly dependsOn: readonly string[];
  readonly condition?: string;
  /** A string or (rarely) an intrinsic such as `Fn::If`; evaluate before use. */
  readonly deletionPolicy?: unknown;
  readonly updateReplacePolicy?: unknown;
  readonly creationPolicy?: unknown;
  readonly updatePolicy?: unknown;
  readonly metadata?: unknown;
}

export interface OutputDefinition {
  readonly name: string;
  readonly value: unknown;
  readonly description?: unknown;
  readonly exportName?: unknown;
  readonly condition?: string;
}

export interface RuleAssertion {
  readonly assert: unknown;
  readonly description?: string;
}

export interface RuleDefinition {
  readonly name: string;
  readonly ruleCondition?: unknown;
  readonly assertions: readonly RuleAssertion[];
}

/** `Mappings.Map.TopKey.SecondKey` → value. */
export type Mappings = ReadonlyMap<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>;

/** The typed template. Sections are Maps so a name like `constructor` never hits a prototype. */
export interface Template {
  readonly formatVersion?: string;
  readonly description?: string;
  readonly transforms: readonly string[];
  readonly parameters: ReadonlyMap<string, ParameterDefinition>;
  readonly conditions: ReadonlyMap<string, unknown>;
  readonly mappings: Mappings;
  readonly rules: ReadonlyMap<string, RuleDefinition>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly outputs: ReadonlyMap<string, OutputDefinition>;
  readonly metadata?: unknown;
}

const TOP_LEVEL_KEYS = new Set([
  'AWSTemplateFormatVersion',
  'Description',
  'Metadata',
  'Parameters',
  'Rules',
  'Mappings',
  'Conditions',
  'Transform',
  'Resources',
  'Outputs',
  'Hooks',
]);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(path: string, detail: string): TemplateEvaluationError {
  return new TemplateEvaluationError(TemplateErrorCode.Invalid, path, detail, {
    hint: 'Fix the template (re-run `cdk synth` if the file was generated).',
  });
}

function section(raw: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = raw[key];
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw invalid(key, 'must be an object');
  return value;
}

function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  return value;
}

function optionalNumber(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(path, 'must be a number');
  return n;
}

/** Structural validation: raw parsed JSON/YAML → Template, or TEMPLATE_INVALID naming the path. */
export function validateTemplate(raw: unknown, file = 'template'): Template {
  try {
    return buildTemplate(raw);
  } catch (error) {
    // Name the file too: the same logical id can exist in several stacks of one assembly.
    if (!(error instanceof TemplateEvaluationError)) throw error;
    throw new TemplateEvaluationError(TemplateErrorCode.Invalid, error.path, `${error.detail} (in ${file})`, {
      hint: error.hint,
    });
  }
}

/** validateTemplate without naming the file in its message. */
export function buildTemplate(raw: unknown): Template {
  if (!isPlainObject(raw)) throw invalid('', 'a template must be a JSON/YAML object');
  for (const key of Object.keys(raw)) {
    if (!TOP_LEVEL_KEYS.has(key)) throw invalid(key, `unknown top-level section "${key}"`);
  }
  return {
    formatVersion: optionalString(raw.AWSTemplateFormatVersion, 'AWSTemplateFormatVersion'),
    description: optionalString(raw.Description, 'Description'),
    transforms: validateTransform(raw.Transform),
    parameters: mapEntries(section(raw, 'Parameters'), (name, v) => validateParameter(name, v)),
    conditions: mapEntries(section(raw, 'Conditions'), (name, v) => {
      if (!isPlainObject(v)) throw invalid(`Conditions.${name}`, 'must be a condition function object');
      return v;
    }),
    mappings: mapEntries(section(raw, 'Mappings'), (name, v) => validateMapping(name, v)),
    rules: mapEntries(section(raw, 'Rules'), (name, v) => validateRule(name, v)),
    resources: mapEntries(section(raw, 'Resources'), (name, v) => validateResource(name, v)),
    outputs: mapEntries(section(raw, 'Outputs'), (name, v) => validateOutput(name, v)),
    metadata: raw.Metadata,
  };
}

function mapEntries<T>(
  obj: Record<string, unknown>,
  fn: (name: string, value: unknown) => T,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const [name, value] of Object.entries(obj)) out.set(name, fn(name, value));
  return out;
}

function validateTransform(value: unknown): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t, i) => {
    if (typeof t === 'string') return t;
    if (isPlainObject(t) && typeof t.Name === 'string') return t.Name;
    throw invalid(`Transform[${i}]`, 'must be a transform name');
  });
}

function validateParameter(name: string, raw: unknown): ParameterDefinition {
  const path = `Parameters.${name}`;
  if (!isPlainObject(raw)) throw invalid(path, 'must be an object');
  if (typeof raw.Type !== 'string') throw invalid(`${path}.Type`, 'must be a string');
  if (raw.AllowedValues !== undefined && !Array.isArray(raw.AllowedValues)) {
    throw invalid(`${path}.AllowedValues`, 'must be a list');
  }
  return {
    type: raw.Type,
    default: raw.Default,
    allowedValues: raw.AllowedValues as unknown[] | undefined,
    allowedPattern: optionalString(raw.AllowedPattern, `${path}.AllowedPattern`),
    minLength: optionalNumber(raw.MinLength, `${path}.MinLength`),
    maxLength: optionalNumber(raw.MaxLength, `${path}.MaxLength`),
    minValue: optionalNumber(raw.MinValue, `${path}.MinValue`),
    maxValue: optionalNumber(raw.MaxValue, `${path}.MaxValue`),
    noEcho: raw.NoEcho === true || raw.NoEcho === 'true',
    description: optionalString(raw.Description, `${path}.Description`),
    constraintDescription: optionalString(raw.ConstraintDescription, `${path}.ConstraintDescription`),
  };
}

function validateMapping(name: string, raw: unknown): Record<string, Record<string, unknown>> {
  const path = `Mappings.${name}`;
  if (!isPlainObject(raw)) throw invalid(path, 'must be an object');
  for (const [key, value] of Object.entries(raw)) {
    if (!isPlainObject(value)) throw invalid(`${path}.${key}`, 'must be an object of second-level keys');
  }
  return raw as Record<string, Record<string, unknown>>;
}

function validateRule(name: string, raw: unknown): RuleDefinition {
  const path = `Rules.${name}`;
  if (!isPlainObject(raw)) throw invalid(path, 'must be an object');
  if (!Array.isArray(raw.Assertions)) throw invalid(`${path}.Assertions`, 'must be a list');
  const assertions = raw.Assertions.map((a: unknown, i: number): RuleAssertion => {
    if (!isPlainObject(a) || a.Assert === undefined) {
      throw invalid(`${path}.Assertions[${i}]`, 'must be an object with Assert');
    }
    return {
      assert: a.Assert,
      description: optionalString(a.AssertDescription, `${path}.Assertions[${i}].AssertDescription`),
    };
  });
  return { name, ruleCondition: raw.RuleCondition, assertions };
}

function validateResource(logicalId: string, raw: unknown): ResourceDefinition {
  const path = `Resources.${logicalId}`;
  if (!isPlainObject(raw)) throw invalid(path, 'must be an object');
  if (typeof raw.Type !== 'string' || raw.Type === '')
    throw invalid(`${path}.Type`, 'must be a non-empty string');
  if (raw.Properties !== undefined && !isPlainObject(raw.Properties)) {
    throw invalid(`${path}.Properties`, 'must be an object');
  }
  return {
    logicalId,
    type: raw.Type,
    properties: raw.Properties ?? {},
    dependsOn: validateDependsOn(raw.DependsOn, `${path}.DependsOn`),
    condition: optionalString(raw.Condition, `${path}.Condition`),
    deletionPolicy: raw.DeletionPolicy,
    updateReplacePolicy: raw.UpdateReplacePolicy,
    creationPolicy: raw.CreationPolicy,
    updatePolicy: raw.UpdatePolicy,
    metadata: raw.Metadata,
  };
}

function validateDependsOn(value: unknown, path: string): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw invalid(path, 'must be a logical id or a list of logical ids');
}

function validateOutput(name: string, raw: unknown): OutputDefinition {
  const path = `Outputs.${name}`;
  if (!isPlainObject(raw)) throw invalid(path, 'must be an object');
  if (raw.Value === undefined) throw invalid(`${path}.Value`, 'is required');
  let exportName: unknown;
  if (raw.Export !== undefined) {
    if (!isPlainObject(raw.Export) || raw.Export.Name === undefined) {
      throw invalid(`${path}.Export`, 'must be an object with Name');
    }
    exportName = raw.Export.Name;
  }
  return {
    name,
    value: raw.Value,
    description: raw.Description,
    exportName,
    condition: optionalString(raw.Condition, `${path}.Condition`),
  };
}

import type { ParameterValue } from './context.js';
import { TemplateErrorCode, TemplateEvaluationError } from './errors.js';
import type { ParameterDefinition, Template } from './model.js';
import { classifyParameterType, type ParameterKind, type ParameterTypeInfo } from './parameter-types.js';

/** What a caller may pass for a parameter (`--parameters Key=Value`, or a list). */
export type SuppliedParameterValue = string | number | readonly string[];

/** Fetches an SSM parameter's value by name (the engine backs it with ssm:GetParameter). */
export type SsmParameterResolver = (name: string) => Promise<string>;

export interface ResolvedParameters {
  readonly values: ReadonlyMap<string, ParameterValue>;
  /** Names whose value must be shown and stored as `***`. */
  readonly noEcho: ReadonlySet<string>;
}

export const MASK = '***';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function invalid(name: string, detail: string, hint?: string): TemplateEvaluationError {
  return new TemplateEvaluationError(TemplateErrorCode.ParameterInvalid, `Parameters.${name}`, detail, {
    hint: hint ?? `Pass a valid value with --parameters ${name}=<value>.`,
  });
}

function typeInfo(name: string, def: ParameterDefinition): ParameterTypeInfo {
  const info = classifyParameterType(def.type);
  if (!info) {
    throw new TemplateEvaluationError(
      TemplateErrorCode.Invalid,
      `Parameters.${name}.Type`,
      `unsupported parameter type "${def.type}"`,
    );
  }
  return info;
}

/** Supplied value or Default, shaped for `kind` (lists split on commas, members trimmed). */
function rawValue(
  name: string,
  def: ParameterDefinition,
  kind: ParameterKind,
  supplied: unknown,
): ParameterValue {
  const value = supplied ?? def.default;
  if (value === undefined) {
    throw new TemplateEvaluationError(
      TemplateErrorCode.ParameterMissing,
      `Parameters.${name}`,
      `parameter ${name} has no value and no Default`,
      { hint: `Pass it with --parameters ${name}=<value>.` },
    );
  }
  const isList = kind === 'string-list' || kind === 'number-list';
  if (Array.isArray(value)) {
    if (!isList) throw invalid(name, `parameter ${name} takes a single value, got a list`);
    return value.map((v) => String(v).trim());
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    throw invalid(name, `parameter ${name} value must be a string, got ${typeof value}`);
  }
  const text = String(value);
  return isList ? text.split(',').map((v) => v.trim()) : text;
}

function show(value: string, def: ParameterDefinition): string {
  return def.noEcho ? MASK : JSON.stringify(value);
}

/** The first constraint `member` breaks, described for the user; undefined when it passes. */
function brokenConstraint(member: string, def: ParameterDefinition, kind: ParameterKind): string | undefined {
  const numeric = kind === 'number' || kind === 'number-list';
  if (numeric && !NUMBER.test(member)) return 'must be a number';
  if (def.allowedValues && !def.allowedValues.some((a) => String(a) === member)) {
    return `must be one of ${def.allowedValues.map((a) => JSON.stringify(String(a))).join(', ')} (AllowedValues)`;
  }
  // CloudFormation matches AllowedPattern against the whole value, not a substring.
  if (def.allowedPattern !== undefined && !new RegExp(`^(?:${def.allowedPattern})$`).test(member)) {
    return `must match the AllowedPattern ${def.allowedPattern}`;
  }
  if (!numeric && def.minLength !== undefined && member.length < def.minLength) {
    return `must be at least ${def.minLength} characters (MinLength)`;
  }
  if (!numeric && def.maxLength !== undefined && member.length > def.maxLength) {
    return `must be at most ${def.maxLength} characters (MaxLength)`;
  }
  if (numeric && def.minValue !== undefined && Number(member) < def.minValue) {
    return `must be at least ${def.minValue} (MinValue)`;
  }
  if (numeric && def.maxValue !== undefined && Number(member) > def.maxValue) {
    return `must be at most ${def.maxValue} (MaxValue)`;
  }
  return undefined;
}

/** Resolves one parameter without SSM: its value (or SSM name) after every constraint check. */
export function resolveParameterValue(
  name: string,
  def: ParameterDefinition,
  supplied?: unknown,
): ParameterValue {
  const { kind } = typeInfo(name, def);
  const value = rawValue(name, def, kind, supplied);
  for (const member of typeof value === 'string' ? [value] : value) {
    let broken: string | undefined;
    try {
      broken = brokenConstraint(member, def, kind);
    } catch (error) {
      throw new TemplateEvaluationError(
        TemplateErrorCode.Invalid,
        `Parameters.${name}.AllowedPattern`,
        `not a valid regular expression: ${(error as Error).message}`,
      );
    }
    if (broken !== undefined) {
      throw invalid(
        name,
        `value ${show(member, def)} for parameter ${name} ${def.constraintDescription ?? broken}`,
      );
    }
  }
  return value;
}

/**
 * Every parameter's value: supplied, else Default; constraints checked; SSM-typed ones
 * fetched through `ssmParameter` (in parallel). Parameters in `skip` are left unresolved.
 */
export async function resolveParameters(
  template: Template,
  supplied: Readonly<Record<string, SuppliedParameterValue>> = {},
  options: { ssmParameter?: SsmParameterResolver; skip?: ReadonlySet<string> } = {},
): Promise<ResolvedParameters> {
  for (const name of Object.keys(supplied)) {
    if (!template.parameters.has(name)) {
      throw new TemplateEvaluationError(
        TemplateErrorCode.ParameterUnknown,
        `Parameters.${name}`,
        `the template declares no parameter ${name}`,
        {
          hint: 'Check the name in --parameters against the template.',
        },
      );
    }
  }
  const values = new Map<string, ParameterValue>();
  const noEcho = new Set<string>();
  const pending: Array<Promise<void>> = [];
  for (const [name, def] of template.parameters) {
    if (def.noEcho) noEcho.add(name);
    if (options.skip?.has(name)) continue;
    const value = resolveParameterValue(
      name,
      def,
      Object.hasOwn(supplied, name) ? supplied[name] : undefined,
    );
    const { kind, ssm } = typeInfo(name, def);
    if (!ssm) {
      values.set(name, value);
      continue;
    }
    pending.push(
      fetchSsm(name, String(value), options.ssmParameter).then((fetched) => {
        values.set(name, kind === 'string-list' ? fetched.split(',').map((v) => v.trim()) : fetched);
      }),
    );
  }
  await Promise.all(pending);
  // Keep declaration order whatever order the SSM answers came back in.
  const ordered = new Map<string, ParameterValue>();
  for (const name of template.parameters.keys()) {
    const value = values.get(name);
    if (value !== undefined) ordered.set(name, value);
  }
  return { values: ordered, noEcho };
}

async function fetchSsm(
  parameter: string,
  ssmName: string,
  resolver?: SsmParameterResolver,
): Promise<string> {
  const fail = (detail: string, cause?: unknown) =>
    new TemplateEvaluationError(TemplateErrorCode.SsmParameterUnresolved, `Parameters.${parameter}`, detail, {
      hint: `Check that the SSM parameter ${ssmName} exists in this account and region and is readable.`,
      cause,
    });
  if (!resolver) throw fail(`SSM parameter ${ssmName} cannot be read: no SSM resolver was supplied`);
  try {
    return await resolver(ssmName);
  } catch (error) {
    throw fail(`cannot read SSM parameter ${ssmName}: ${(error as Error).message ?? String(error)}`, error);
  }
}

/** Parameter values as they may be stored or printed: NoEcho ones become `***`. */
export function maskParameters(resolved: ResolvedParameters): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, value] of resolved.values) out[name] = resolved.noEcho.has(name) ? MASK : value;
  return out;
}

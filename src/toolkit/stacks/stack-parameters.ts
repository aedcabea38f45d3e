import type { Template } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { TemplateErrorCode } from '../../template/errors.js';

/** One `--parameters` entry: `NAME=value` for every selected stack, `STACK:NAME=value` for one. */
interface ParameterEntry {
  stack?: string;
  name: string;
  value: string;
}

/** What parameter values need to know of a selected stack; a StackArtifact fits. */
export interface ParameterizedStack {
  stackName: string;
  displayName: string;
  template: Template;
  /** Values the assembly itself passes. */
  parameters: Record<string, string>;
}

export interface StackParameters {
  /** The values each stack is deployed with, by display name. */
  values: Map<string, Record<string, string>>;
  /** One line per plain entry some selected stacks do not declare (ignored for them). */
  notes: string[];
}

/** What one `--parameters` entry does for one selected stack, as the CDK CLI reads them. */
export type EntryEffect = 'apply' | 'ignore' | 'unknown' | 'other-stack';

export function entryEffect(entry: { stack?: string; name: string }, stack: StackDeclarations): EntryEffect {
  if (entry.stack !== undefined && entry.stack !== stack.stackName) return 'other-stack';
  if (stack.declares(entry.name)) return 'apply';
  return entry.stack === undefined ? 'ignore' : 'unknown';
}

interface StackDeclarations {
  stackName: string;
  declares(name: string): boolean;
}

function parseParameterEntries(raw: readonly string[]): ParameterEntry[] {
  return raw.map((entry) => {
    const equals = entry.indexOf('=');
    if (equals <= 0) {
      throw new CdkdError(
        'PARAMETER_SYNTAX',
        `--parameters ${entry}: expected KEY=VALUE or STACK:KEY=VALUE.`,
        {
          hint: 'For example: --parameters BucketName=my-bucket or --parameters MyStack:BucketName=my-bucket',
        },
      );
    }
    const key = entry.slice(0, equals);
    const value = entry.slice(equals + 1);
    const colon = key.indexOf(':');
    return colon < 0
      ? { name: key, value }
      : { stack: key.slice(0, colon), name: key.slice(colon + 1), value };
  });
}

/**
 * Every selected stack's parameter values from `--parameters`: a plain entry goes to each
 * stack that declares the name (a note names the others), `STACK:NAME` to that stack and
 * wins over a plain one. Refused before anything is deployed, each naming every case at
 * once: an entry no selected stack can take, and a declared parameter left with no value.
 * Values are never shown: a parameter may be NoEcho.
 */
export function stackParameters(
  stacks: readonly ParameterizedStack[],
  raw: readonly string[],
  options: { checkMissing: boolean } = { checkMissing: true },
): StackParameters {
  const entries = parseParameterEntries(raw);
  const declared = new Map(stacks.map((stack) => [stack.displayName, declaredParameters(stack.template)]));
  const values = new Map<string, Record<string, string>>();
  const ignoredBy = new Map<string, string[]>();
  const appliedPlain = new Set<string>();
  const unknown: string[] = [];
  for (const stack of stacks) {
    const parameters = declared.get(stack.displayName)!;
    const target = { stackName: stack.stackName, declares: (name: string) => parameters.has(name) };
    const plain: Record<string, string> = {};
    const specific: Record<string, string> = {};
    for (const entry of entries) {
      const effect = entryEffect(entry, target);
      if (effect === 'apply') {
        (entry.stack === undefined ? plain : specific)[entry.name] = entry.value;
        if (entry.stack === undefined) appliedPlain.add(entry.name);
      } else if (effect === 'ignore') {
        ignoredBy.set(entry.name, [...new Set([...(ignoredBy.get(entry.name) ?? []), stack.stackName])]);
      } else if (effect === 'unknown') {
        unknown.push(`${entry.stack}:${entry.name}`);
      }
    }
    values.set(stack.displayName, { ...stack.parameters, ...plain, ...specific });
  }
  const undeclared = [...ignoredBy.keys()].filter((name) => !appliedPlain.has(name));
  refuseUnknown([...new Set([...undeclared, ...unknown])]);
  if (options.checkMissing) refuseMissingParameters(stacks, values);
  const notes = [...new Set(entries.map((entry) => entry.name))].flatMap((name) => {
    const names = ignoredBy.get(name);
    if (!names) return [];
    const verb = names.length === 1 ? 'declares' : 'declare';
    return [`--parameters ${name}: ignored for ${names.join(', ')}, which ${verb} no parameter ${name}.`];
  });
  return { values, notes };
}

/** Each declared parameter's name, and whether it has a Default. */
function declaredParameters(template: Template): Map<string, boolean> {
  const parameters = (template.Parameters ?? {}) as Record<string, { Default?: unknown } | undefined>;
  return new Map(
    Object.entries(parameters).map(([name, definition]) => [name, definition?.Default !== undefined]),
  );
}

function refuseUnknown(entries: string[]): void {
  if (entries.length === 0) return;
  throw new CdkdError(
    TemplateErrorCode.ParameterUnknown,
    `--parameters names ${entries.length === 1 ? 'a parameter' : 'parameters'} no selected stack declares: ${entries.join(', ')}.`,
    { hint: "Check each name (and STACK: prefix) against the stacks' templates (cdkd synth STACK)." },
  );
}

/** Refuses, naming every case at once, a declared parameter with no Default left with no value. */
export function refuseMissingParameters(
  stacks: readonly ParameterizedStack[],
  values: ReadonlyMap<string, Record<string, string>>,
): void {
  const missing = stacks.flatMap((stack) => {
    const supplied = values.get(stack.displayName)!;
    const names = [...declaredParameters(stack.template)]
      .filter(([name, hasDefault]) => !hasDefault && supplied[name] === undefined)
      .map(([name]) => name);
    return names.length === 0 ? [] : [`${stack.stackName}: ${names.join(', ')}`];
  });
  if (missing.length === 0) return;
  throw new CdkdError(
    TemplateErrorCode.ParameterMissing,
    `Parameters with no value and no Default: ${missing.join('; ')}.`,
    {
      hint: 'Pass each with --parameters NAME=value (every selected stack that declares NAME) or --parameters STACK:NAME=value.',
    },
  );
}

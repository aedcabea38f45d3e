import type { OutputRecord } from '../../state/index.js';
import type { FailedOutput, OutputChange } from '../../messages/index.js';
import type { DeclaredExport } from '../../plan/index.js';
import {
  collectReferences,
  evaluate,
  rootPath,
  type ExternalResolver,
  type PreparedTemplate,
} from '../../template/index.js';
import { isLiveAttributeRefusal, type LiveAttributes } from './live-attributes.js';
import { holdsPendingValue } from './state-resolver.js';

export type { FailedOutput, OutputChange } from '../../messages/index.js';

/**
 * What a deploy would do to the recorded outputs, for `cdkd diff`: each output that evaluates
 * now (attributes read live where the records lack them) and differs from its record. One
 * reading a resource this deploy makes (or an export an earlier stack of the run makes) is
 * known after deploy; one whose live read is refused is in `failed`.
 */
export async function outputChanges(
  masked: PreparedTemplate,
  planningResolver: ExternalResolver,
  live: LiveAttributes,
  recorded: Record<string, OutputRecord>,
): Promise<{ changes: OutputChange[]; failed: FailedOutput[] }> {
  const changes: OutputChange[] = [];
  const failed: FailedOutput[] = [];
  for (const name of masked.activeOutputs) {
    let value: unknown;
    try {
      value = (await live.evaluate(planningResolver, (r) => masked.evaluateOutput(name, r))).value;
    } catch (error) {
      if (isLiveAttributeRefusal(error))
        failed.push({ name, message: error.message, ...(error.hint ? { hint: error.hint } : {}) });
      // Anything else fails for real when the deploy evaluates it.
      continue;
    }
    const before = recorded[name];
    if (holdsPendingValue(value)) {
      changes.push({ name, ...(before ? { before: before.value } : {}), knownAfterDeploy: true });
      continue;
    }
    if (before && JSON.stringify(before.value) === JSON.stringify(value)) continue;
    changes.push({ name, ...(before ? { before: before.value } : {}), after: value });
  }
  for (const [name, before] of Object.entries(recorded))
    if (!masked.activeOutputs.includes(name)) changes.push({ name, before: before.value });
  return { changes, failed };
}

export interface EvaluatedOutputs {
  /** What is stored: a failed output keeps its earlier value, if it had one, until it resolves. */
  stored: Record<string, OutputRecord>;
  /** What is printed and written to --outputs-file: the outputs that resolved. */
  resolved: Record<string, OutputRecord>;
  failed: FailedOutput[];
}

/**
 * Outputs as stored and printed: evaluated with NoEcho values masked, never in clear. An
 * output reading an attribute that cannot be read live lands in `failed`; the rest resolve.
 */
export async function evaluateOutputs(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
  options: { live?: LiveAttributes; previous?: Record<string, OutputRecord> } = {},
): Promise<EvaluatedOutputs> {
  const result: EvaluatedOutputs = { stored: {}, resolved: {}, failed: [] };
  for (const name of masked.activeOutputs) {
    const one = (r: ExternalResolver) => masked.evaluateOutput(name, r);
    try {
      const output = options.live ? await options.live.evaluate(resolver, one) : one(resolver);
      const record = {
        value: output.value,
        ...(output.description ? { description: output.description } : {}),
        ...(output.exportName ? { exportName: output.exportName } : {}),
      };
      result.stored[name] = record;
      result.resolved[name] = record;
    } catch (error) {
      if (!isLiveAttributeRefusal(error)) throw error;
      result.failed.push({ name, message: error.message, ...(error.hint ? { hint: error.hint } : {}) });
      const earlier = options.previous?.[name];
      if (earlier) result.stored[name] = earlier;
    }
  }
  return result;
}

/**
 * The values of the exports `wanted` names (those another stack imports), for the
 * changed-export guard; an attribute a record lacks is read live (spec 002), so only an
 * imported export's value costs a read. A value not known yet (it reads a resource not made
 * yet, or a live read is refused) is left out: the post-deploy check and the outputs cover it.
 */
export async function declaredExportValues(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
  wanted: (exportName: string) => boolean,
  live?: LiveAttributes,
): Promise<Map<string, unknown>> {
  const values = new Map<string, unknown>();
  for (const name of masked.activeOutputs) {
    const one = (r: ExternalResolver) => masked.evaluateOutput(name, r);
    try {
      const exportName = exportNameOf(masked, name, resolver);
      if (exportName === undefined || !wanted(exportName)) continue;
      const output = live ? await live.evaluate(resolver, one) : one(resolver);
      if (!holdsPendingValue(output.value)) values.set(exportName, output.value);
    } catch {
      // Not evaluable before the resources it reads exist; the post-deploy check covers it.
    }
  }
  return values;
}

/** The export names a template will declare, evaluated before anything is touched. */
export function declaredExportNames(masked: PreparedTemplate, resolver: ExternalResolver): Set<string> {
  return new Set(exportingOutputs(masked, resolver).map(([, exportName]) => exportName));
}

/** Each export a template declares, with the resources of the stack its value reads. */
export function declaredExports(masked: PreparedTemplate, resolver: ExternalResolver): DeclaredExport[] {
  return exportingOutputs(masked, resolver).map(([output, exportName]) => ({
    exportName,
    reads: collectReferences(
      masked.template.outputs.get(output)?.value,
      rootPath('Outputs', output, 'Value'),
      (condition) => masked.conditions.get(condition),
    )
      .filter((reference) => !reference.untaken)
      .map((reference) => ({ target: reference.target, via: reference.readsAttribute ? 'getatt' : 'ref' })),
  }));
}

/** The active outputs that export, as [output name, evaluated export name]. */
export function exportingOutputs(masked: PreparedTemplate, resolver: ExternalResolver): [string, string][] {
  return masked.activeOutputs.flatMap((name): [string, string][] => {
    const exportName = exportNameOf(masked, name, resolver);
    return exportName === undefined ? [] : [[name, exportName]];
  });
}

/** An output's Export Name, undefined when it has none or it does not evaluate to a string. */
function exportNameOf(
  masked: PreparedTemplate,
  output: string,
  resolver: ExternalResolver,
): string | undefined {
  const exportName = masked.template.outputs.get(output)?.exportName;
  if (exportName === undefined) return undefined;
  const evaluated = evaluate(
    exportName,
    masked.context(resolver),
    rootPath('Outputs', output, 'Export', 'Name'),
  );
  return typeof evaluated === 'string' ? evaluated : undefined;
}

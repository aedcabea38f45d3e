import type { OutputRecord } from '../state/documents/state-document.js';
import { evaluate, rootPath, type ExternalResolver, type PreparedTemplate } from '../template/index.js';
import { holdsPendingValue } from './state-resolver.js';

/** Outputs as stored and printed: evaluated with NoEcho values masked, never in clear. */
export function evaluateOutputs(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
): Record<string, OutputRecord> {
  const outputs: Record<string, OutputRecord> = {};
  for (const output of masked.evaluateOutputs(resolver)) {
    outputs[output.name] = {
      value: output.value,
      ...(output.description ? { description: output.description } : {}),
      ...(output.exportName ? { exportName: output.exportName } : {}),
    };
  }
  return outputs;
}

/**
 * The value each export a template declares will take, for the exports `wanted` names. One
 * whose value is not known yet (it reads a resource this deploy makes, or fails to evaluate
 * before resources exist) is left out: the check after the deploy phase sees its value.
 */
export function declaredExportValues(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
  wanted: (exportName: string) => boolean,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const name of masked.activeOutputs) {
    try {
      const output = masked.evaluateOutput(name, resolver);
      if (output.exportName === undefined || !wanted(output.exportName)) continue;
      if (!holdsPendingValue(output.value)) values.set(output.exportName, output.value);
    } catch {
      // Not evaluable before the resources it reads exist; the post-deploy check covers it.
    }
  }
  return values;
}

/** The export names a template will declare, evaluated before anything is touched. */
export function declaredExportNames(masked: PreparedTemplate, resolver: ExternalResolver): Set<string> {
  const names = new Set<string>();
  for (const name of masked.activeOutputs) {
    const exportName = masked.template.outputs.get(name)?.exportName;
    if (exportName === undefined) continue;
    const evaluated = evaluate(
      exportName,
      masked.context(resolver),
      rootPath('Outputs', name, 'Export', 'Name'),
    );
    if (typeof evaluated === 'string') names.add(evaluated);
  }
  return names;
}

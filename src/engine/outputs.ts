import type { OutputRecord } from '../state/documents/state-document.js';
import { evaluate, rootPath, type ExternalResolver, type PreparedTemplate } from '../template/index.js';

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

import { CdkdError } from '../../errors.js';
import type { StackRef, StateBackend, StateDocument } from '../../state/index.js';

/**
 * Refuses to export a stack that imports an export of a stack cdkd still manages, before
 * anything changes: CloudFormation resolves Fn::ImportValue only against its own stacks'
 * exports, so its IMPORT would fail. The exporting stacks go first.
 */
export async function refuseCdkdExporters(
  backend: StateBackend,
  ref: StackRef,
  document: StateDocument,
): Promise<void> {
  const imports = new Set(document.imports);
  if (imports.size === 0) return;
  const found: Array<{ name: string; exporter: string }> = [];
  for (const other of await backend.store.list()) {
    if (other.region !== ref.region || other.stackName === ref.stackName) continue;
    const exporter = (await backend.store.read(other))?.document;
    for (const output of Object.values(exporter?.outputs ?? {})) {
      if (output.exportName && imports.has(output.exportName))
        found.push({ name: output.exportName, exporter: exporter!.stackName });
    }
  }
  if (found.length === 0) return;
  const exporters = [...new Set(found.map((one) => one.exporter))];
  const lines = found.map((one) => `${one.name} (exported by ${one.exporter})`);
  throw new CdkdError(
    'EXPORT_IMPORTS_CDKD_EXPORT',
    `Stack ${document.stackName} imports exports of stacks cdkd still manages: ${lines.join('; ')}. CloudFormation could not resolve them, so nothing was exported.`,
    { hint: `Export ${exporters.join(', ')} first (cdkd export ${exporters[0]}), then this stack.` },
  );
}

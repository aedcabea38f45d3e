import { KNOWN_AFTER_DEPLOY, type DesiredResource, type Plan } from '../../plan/index.js';
import type { ExternalResolver, PreparedTemplate } from '../../template/index.js';
import type { ExportIndex } from '../export-index.js';
import { exportingOutputs } from './outputs.js';
import { holdsPendingValue, pendingValue } from './state-resolver.js';

/**
 * The value of every export a template declares, as the plan sees it now: one reading a
 * resource not made yet holds a placeholder, known after deploy. What a dry run leaves for the
 * later stacks of its run, which would import it once this stack had deployed.
 */
export function plannedExportValues(
  masked: PreparedTemplate,
  resolver: ExternalResolver,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const [output, exportName] of exportingOutputs(masked, resolver)) {
    try {
      values.set(exportName, masked.evaluateOutput(output, resolver).value);
    } catch {
      // A placeholder can fail Fn::Select or Fn::Split; the deploy evaluates it for real.
      values.set(exportName, pendingValue(`Outputs.${output}`));
    }
  }
  return values;
}

/**
 * Notes each resource that reads an export an earlier stack of this dry run only plans to
 * create: that property is known after deploy.
 */
export function noteExportsKnownAfterDeploy(
  plan: Plan,
  desired: readonly DesiredResource[],
  exports: ExportIndex,
): void {
  const byId = new Map(desired.map((resource) => [resource.logicalId, resource]));
  for (const op of plan.operations) {
    const notes = (byId.get(op.logicalId)?.reads ?? [])
      .filter((read) => read.via === 'import' && holdsPendingValue(exports.value(read.target)))
      .map(
        (read) =>
          `${read.property}: ${KNOWN_AFTER_DEPLOY}, reads export ${read.target}, which ${exports.exporterOf(read.target)} creates when it deploys before this stack`,
      );
    if (notes.length > 0) op.notes = [...op.notes, ...new Set(notes)];
  }
}

import { sandboxSchemaFor } from '../../../resource-index.js';
import { NESTED_STACK } from '../template/source.js';
import type { ResourceToImport } from '../model/types.js';
import { PersistFailure, reasonOf, StepFailure } from './failures.js';
import type { StackOperation } from './operation.js';
import { publishOutputs } from './outputs.js';
import { propertiesHash } from './property-hash.js';
import { evaluateProperties, recordProvisioned, templateRecord, type Evaluation } from './resource-steps.js';
import { finishUpdate } from './update.js';

/** The handler identifier of a resource to import: its primary identifier's values, in the schema's order. */
export function importIdentifier(resource: ResourceToImport): string {
  const parts = sandboxSchemaFor(resource.type)?.id ?? Object.keys(resource.identifier);
  return parts.map((part) => resource.identifier[part] ?? '').join('|');
}

/**
 * An IMPORT change set: each resource is read where it lives and recorded on the stack
 * (IMPORT_IN_PROGRESS → IMPORT_COMPLETE), nothing is created or changed; a failure forgets
 * what was recorded, and the stack returns to what it was (IMPORT_ROLLBACK_COMPLETE).
 */
export async function runImport(
  op: StackOperation,
  evaluation: Evaluation,
  resources: readonly ResourceToImport[],
): Promise<void> {
  const failure = await importAll(op, evaluation, resources);
  if (failure === undefined) {
    for (const resource of resources) {
      if (resource.type === NESTED_STACK)
        await op.deps.provisioner.adoptNested(op.stack, importIdentifier(resource));
    }
    await finishUpdate(op, 'IMPORT_COMPLETE');
    return;
  }
  await op.status('IMPORT_ROLLBACK_IN_PROGRESS', failure);
  const previous = op.stack.previous;
  if (previous) {
    Object.assign(op.stack, structuredClone(previous));
    for (const key of ['description', 'roleArn', 'imports'] as const) {
      if (previous[key] === undefined) delete op.stack[key];
    }
  }
  delete op.stack.previous;
  delete op.stack.journal;
  delete op.stack.pendingRemoval;
  await op.status('IMPORT_ROLLBACK_COMPLETE');
}

async function importAll(
  op: StackOperation,
  evaluation: Evaluation,
  resources: readonly ResourceToImport[],
): Promise<string | undefined> {
  const before = structuredClone(op.stack.outputs);
  op.stack.pendingRemoval = [];
  for (const resource of resources) {
    const record = templateRecord(evaluation, resource.logicalId);
    op.stack.resources[resource.logicalId] = record;
    await op.resource(record, 'IMPORT_IN_PROGRESS');
    try {
      const properties = evaluateProperties(evaluation, resource.logicalId);
      const identifier = importIdentifier(resource);
      const model = op.deps.provisioner.read(op.stack, resource.type, identifier);
      if (!model) {
        throw new StepFailure(
          `Resource of type '${resource.type}' with identifier '${JSON.stringify(resource.identifier)}' was not found.`,
        );
      }
      if (resource.type === NESTED_STACK)
        await op.deps.provisioner.checkNestedAdoption(op.stack, identifier, properties);
      record.properties = properties;
      record.propertiesHash = propertiesHash(properties);
      recordProvisioned(record, op.deps.provisioner.imported(resource.type, identifier, model));
      await op.resource(record, 'IMPORT_COMPLETE');
    } catch (error) {
      if (error instanceof PersistFailure) return error.message;
      await op.resource(record, 'IMPORT_FAILED', reasonOf(error));
      return `The following resource(s) failed to import: [${resource.logicalId}]. `;
    }
  }
  return publishOutputs(op, evaluation, before);
}

import type { DependencyGraph, ExternalResolver, PreparedTemplate } from '../../../../template/index.js';
import type { StackResourceRecord } from '../model/types.js';
import { walkGraph, type WalkFailure } from './graph-walk.js';
import { PersistFailure, reasonOf } from './failures.js';
import type { StackOperation } from './operation.js';
import { propertiesHash } from './property-hash.js';
import type { Provisioned } from './provisioner.js';

/** A template being applied: evaluation, references, and the order resources go in. */
export interface Evaluation {
  prepared: PreparedTemplate;
  resolver: ExternalResolver;
  /** Export names Fn::ImportValue read while evaluating. */
  imports: Set<string>;
  graph: DependencyGraph;
}

/** A new record for a template resource, before anything is made. */
export function templateRecord(evaluation: Evaluation, logicalId: string): StackResourceRecord {
  const definition = evaluation.prepared.template.resources.get(logicalId)!;
  const policies = evaluation.prepared.resourcePolicies(logicalId);
  return {
    logicalId,
    type: definition.type,
    status: 'CREATE_IN_PROGRESS',
    lastUpdated: new Date().toISOString(),
    propertiesHash: '',
    properties: {},
    attributes: {},
    dependsOn: [...evaluation.graph.dependencies(logicalId)],
    ...(definition.metadata !== undefined ? { metadata: JSON.stringify(definition.metadata) } : {}),
    ...(policies.deletionPolicy ? { deletionPolicy: policies.deletionPolicy } : {}),
    ...(policies.updateReplacePolicy ? { updateReplacePolicy: policies.updateReplacePolicy } : {}),
  };
}

/** The resource's properties with every intrinsic resolved against the stack so far. */
export function evaluateProperties(evaluation: Evaluation, logicalId: string): Record<string, unknown> {
  return evaluation.prepared.evaluateResourceProperties(logicalId, evaluation.resolver);
}

export function recordProvisioned(record: StackResourceRecord, made: Provisioned): void {
  record.physicalId = made.physicalId;
  if (made.identifier !== undefined) record.identifier = made.identifier;
  else delete record.identifier;
  record.attributes = made.attributes;
}

/**
 * Creates one template resource: CREATE_IN_PROGRESS, then CREATE_COMPLETE, or CREATE_FAILED
 * with the reason (and the failure thrown on, for the walk to stop).
 */
export async function createResource(
  op: StackOperation,
  evaluation: Evaluation,
  record: StackResourceRecord,
): Promise<void> {
  op.stack.resources[record.logicalId] = record;
  await op.resource(record, 'CREATE_IN_PROGRESS');
  try {
    const properties = evaluateProperties(evaluation, record.logicalId);
    record.properties = properties;
    record.propertiesHash = propertiesHash(properties);
    const made = await op.deps.provisioner.create({
      stack: op.stack,
      logicalId: record.logicalId,
      type: record.type,
      properties,
    });
    recordProvisioned(record, made);
    await op.resource(record, 'CREATE_IN_PROGRESS', 'Resource creation Initiated', properties);
    await op.resource(record, 'CREATE_COMPLETE');
  } catch (error) {
    if (!(error instanceof PersistFailure)) await op.resource(record, 'CREATE_FAILED', reasonOf(error));
    throw error;
  }
}

/** Why a resource is kept rather than deleted, by the rule of the operation deleting it. */
export type KeepRule = (record: StackResourceRecord) => boolean;

/** A stack's deletion and an update's cleanup keep Retain and RetainExceptOnCreate. */
export const keepOnDelete: KeepRule = (record) =>
  record.deletionPolicy === 'Retain' || record.deletionPolicy === 'RetainExceptOnCreate';

/** Rolling back what an operation created keeps only Retain. */
export const keepOnRollbackOfCreate: KeepRule = (record) => record.deletionPolicy === 'Retain';

/**
 * Deletes the stack's resources `logicalIds`, dependents first, in parallel where they do
 * not depend on each other; a failure stops only what waits for it. Records end
 * DELETE_COMPLETE / DELETE_SKIPPED, or are dropped from the stack with `dropRecords`.
 */
export async function deleteResources(
  op: StackOperation,
  logicalIds: readonly string[],
  keep: KeepRule,
  options: { dropRecords?: boolean } = {},
): Promise<WalkFailure[]> {
  const records = op.stack.resources;
  const ids = logicalIds.filter((id) => records[id] !== undefined);
  const dependents = (id: string) => ids.filter((other) => records[other]!.dependsOn.includes(id));
  const { failures } = await walkGraph(
    ids,
    dependents,
    async (id) => {
      const record = records[id]!;
      if (keep(record)) {
        await op.resource(record, 'DELETE_SKIPPED');
      } else if (record.physicalId === undefined || record.status === 'DELETE_COMPLETE') {
        if (record.status !== 'DELETE_COMPLETE') await op.resource(record, 'DELETE_COMPLETE');
      } else {
        await op.resource(record, 'DELETE_IN_PROGRESS');
        try {
          await op.deps.provisioner.delete(op.stack, record);
        } catch (error) {
          if (!(error instanceof PersistFailure)) await op.resource(record, 'DELETE_FAILED', reasonOf(error));
          throw error;
        }
        await op.resource(record, 'DELETE_COMPLETE');
      }
      if (options.dropRecords) {
        delete records[id];
        await op.persist();
      }
    },
    { continueOnFailure: true, stop: () => op.deps.closing() },
  );
  return failures;
}

/** `The following resource(s) failed to <verb>: [A, B]. ` as CloudFormation words a failed operation. */
export function failedResources(verb: string, failures: readonly WalkFailure[]): string {
  return `The following resource(s) failed to ${verb}: [${failures.map((f) => f.node).join(', ')}]. `;
}

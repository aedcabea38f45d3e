import type { ExternalResolver } from '../../../../template/index.js';
import type { ResourceChange, ResourceToImport, StackRecord, StackResourceRecord } from '../model/types.js';
import { canonicalJson, propertiesHash } from './property-hash.js';
import type { Proposal } from './proposal.js';
import type { Provisioner } from './provisioner.js';
import { attributeValue } from './resolver.js';
import { changedProperties, decideUpdate } from './update-strategy.js';

/** A value only the deploy will know (a resource not made yet): the change is Conditional. */
class NotYetKnown extends Error {}

/**
 * What DescribeChangeSet lists for a proposal: Add for new resources, Remove for dropped
 * ones, Modify with the replacement seed 004's strategy would pick, Import for resources to
 * import. Unchanged resources (same property hash) are not listed.
 */
export function resourceChanges(
  stack: StackRecord,
  proposal: Proposal,
  provisioner: Provisioner,
  toImport: readonly ResourceToImport[] = [],
): ResourceChange[] {
  const { prepared } = proposal.evaluation;
  const resolver = previewResolver(stack, proposal.evaluation.resolver);
  const changes: ResourceChange[] = [];
  const active = new Set(prepared.activeResources);
  for (const logicalId of prepared.activeResources) {
    const type = prepared.template.resources.get(logicalId)!.type;
    const imported = toImport.find((resource) => resource.logicalId === logicalId);
    const existing = stack.resources[logicalId];
    const row = { logicalId, type, scope: [] as string[], replacingProperties: [], changedProperties: [] };
    if (imported) {
      changes.push({ ...row, action: 'Import' });
      continue;
    }
    if (existing?.physicalId === undefined) {
      changes.push({ ...row, action: 'Add' });
      continue;
    }
    const modified = modification(existing, logicalId, type, proposal, resolver, provisioner);
    if (modified) changes.push({ ...row, ...modified, physicalId: existing.physicalId });
  }
  for (const record of Object.values(stack.resources)) {
    if (active.has(record.logicalId) || record.physicalId === undefined) continue;
    changes.push({
      action: 'Remove',
      logicalId: record.logicalId,
      physicalId: record.physicalId,
      type: record.type,
      scope: [],
      replacingProperties: [],
      changedProperties: [],
    });
  }
  return changes;
}

function modification(
  existing: StackResourceRecord,
  logicalId: string,
  type: string,
  proposal: Proposal,
  resolver: ExternalResolver,
  provisioner: Provisioner,
):
  | Pick<ResourceChange, 'action' | 'replacement' | 'scope' | 'replacingProperties' | 'changedProperties'>
  | undefined {
  if (existing.type !== type) {
    return {
      action: 'Modify',
      replacement: 'True',
      scope: ['Properties'],
      replacingProperties: [],
      changedProperties: [],
    };
  }
  let properties: Record<string, unknown>;
  try {
    properties = proposal.evaluation.prepared.evaluateResourceProperties(logicalId, resolver);
  } catch (error) {
    if (!(error instanceof NotYetKnown)) throw error;
    return {
      action: 'Modify',
      replacement: 'Conditional',
      scope: ['Properties'],
      replacingProperties: [],
      changedProperties: [],
    };
  }
  const decision = decideUpdate({
    recordedHash: existing.propertiesHash,
    newHash: propertiesHash(properties),
    oldProperties: existing.properties,
    newProperties: properties,
    createOnly: provisioner.createOnlyProperties(type),
    hasUpdate: provisioner.canUpdate(type),
  });
  if (decision.strategy === 'skip') return undefined;
  return {
    action: 'Modify',
    replacement: decision.strategy === 'replace' ? 'True' : 'False',
    scope: ['Properties'],
    replacingProperties: decision.strategy === 'replace' ? decision.immutable : [],
    changedProperties: decision.changed,
  };
}

/** References read what the stack holds now; a resource it does not hold yet is not known. */
function previewResolver(stack: StackRecord, live: ExternalResolver): ExternalResolver {
  const made = (logicalId: string): StackResourceRecord => {
    const record = stack.resources[logicalId];
    if (record?.physicalId === undefined) throw new NotYetKnown(logicalId);
    return record;
  };
  return {
    ref: (logicalId) => made(logicalId).physicalId,
    getAtt: (logicalId, attribute) => attributeValue(made(logicalId), attribute) ?? '',
    importValue: (name) => live.importValue(name),
  };
}

/**
 * Whether a proposal changes nothing: no resource change, and the same template,
 * parameters, tags and notification topics ("No updates are to be performed.").
 */
export function changesNothing(
  stack: StackRecord,
  proposal: Proposal,
  changes: readonly ResourceChange[],
): boolean {
  const { generation } = proposal;
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  return (
    changes.length === 0 &&
    sameTemplate(stack.templateBody, generation.templateBody) &&
    same(
      stack.parameters.map((p) => [p.key, p.value]),
      generation.parameters.map((p) => [p.key, p.value]),
    ) &&
    same(stack.tags, generation.tags) &&
    same(stack.notificationArns, generation.notificationArns) &&
    changedProperties({ role: stack.roleArn }, { role: generation.roleArn ?? stack.roleArn }).length === 0
  );
}

function sameTemplate(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
  } catch {
    return false;
  }
}

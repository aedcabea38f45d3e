import { propertyHash } from '../../plan/index.js';
import { recordOnParentLoss } from '../../plan/parent-children.js';
import { parentIdentifiers } from '../../plan/readers.js';
import type { ResourceRecord } from '../../state/index.js';
import type { StackState } from '../../stack-state/index.js';

/** A child whose record went with its deleted parent: the engine re-creates it without a delete. */
export interface LostChild {
  record: ResourceRecord;
  parent: string;
}

/**
 * Spec 002 "Children deleted with the target", applied the moment a parent is deleted to be
 * re-created: in the save that forgets the parent, each child AWS deleted with it is dropped,
 * and a multi-parent policy or an attached resource is trimmed of the parent (its hash
 * recomputed, so the engine sees the difference and writes it to the re-created parent).
 * Returns the dropped children by logical id.
 */
export async function forgetParent(
  state: StackState,
  parentLogicalId: string,
  parent: ResourceRecord,
): Promise<Map<string, LostChild>> {
  const resources = state.document.resources;
  const parentIds = parentIdentifiers(parent);
  const lost = new Map<string, LostChild>();
  delete resources[parentLogicalId];
  for (const [logicalId, record] of Object.entries(resources)) {
    const decision = recordOnParentLoss({
      type: record.type,
      properties: record.properties,
      parentType: parent.type,
      parentIds,
    });
    if (decision.kind === 'drop') {
      delete resources[logicalId];
      lost.set(logicalId, { record, parent: parentLogicalId });
    } else if (decision.kind === 'trim') {
      const properties = decision.properties;
      resources[logicalId] = { ...record, properties, propertyHash: propertyHash(properties) };
    }
  }
  await state.save();
  return lost;
}

import { messageOf } from '../../errors.js';
import { ResourceMadeError } from '../../providers/provider.js';
import type { ResourceRecord } from '../../state/index.js';
import type { OperationDraft } from './observer.js';

/** A create whose provider proved it made the resource before failing; carried up to the journal. */
export class MadeThenFailed extends Error {
  constructor(
    readonly made: ResourceMadeError,
    readonly provisionedBy: ResourceRecord['provisionedBy'],
    readonly stored: Record<string, unknown>,
  ) {
    super(made.message);
  }
}

/**
 * Stores what a create just made. When that state save fails, memory is put back as it was
 * and the resource is reported as made, so the journal records it (spec 003: nothing the
 * cloud holds is left out of both state and the journal) and every path can act on it.
 */
export async function storeMade(
  record: ResourceRecord,
  stored: Record<string, unknown>,
  change: { save(): Promise<void>; undo(): void },
): Promise<void> {
  try {
    await change.save();
  } catch (error) {
    change.undo();
    const made = new ResourceMadeError(
      {
        physicalId: record.physicalId,
        ...(record.creationIdentity ? { creationIdentity: record.creationIdentity } : {}),
      },
      error,
    );
    throw new MadeThenFailed(made, record.provisionedBy, stored);
  }
}

export function failureOutcome(error: unknown): Partial<OperationDraft> {
  if (!(error instanceof MadeThenFailed)) return { error: messageOf(error) };
  return {
    error: error.message,
    physicalId: error.made.made.physicalId,
    made: {
      physicalId: error.made.made.physicalId,
      provisionedBy: error.provisionedBy,
      properties: error.stored,
      ...(error.made.made.creationIdentity ? { creationIdentity: error.made.made.creationIdentity } : {}),
    },
  };
}

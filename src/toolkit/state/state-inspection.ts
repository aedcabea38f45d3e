import { CdkdError } from '../../errors.js';
import type { StateDocument, StackRef } from '../../state/index.js';
import { stackNotInState } from '../../state/state-bucket-errors.js';
import type { Session } from '../session/session.js';

export interface StackSummary extends StackRef {
  resourceCount: number;
  updatedAt: string;
}

export async function listStacks(session: Session): Promise<{ bucket: string; stacks: StackSummary[] }> {
  const backend = await session.stateBackend();
  const refs = await backend.store.list();
  const stacks = await Promise.all(
    refs.map(async (ref) => {
      const read = await backend.store.read(ref);
      return {
        ...ref,
        resourceCount: read ? Object.keys(read.document.resources).length : 0,
        updatedAt: read?.document.updatedAt ?? '',
      };
    }),
  );
  return { bucket: backend.bucket, stacks };
}

/**
 * The recorded state of one stack. With no --region, the stack's only region
 * in the bucket is used; a stack recorded in several regions must be named with one.
 */
export async function showStack(
  session: Session,
  stackName: string,
  explicitRegion: string | undefined,
): Promise<{ location: string; document: StateDocument }> {
  const backend = await session.stateBackend();
  const region =
    explicitRegion ?? chooseStackRegion(stackName, await backend.store.list(), await session.region());
  const ref = { stackName, region };
  const read = await backend.store.read(ref);
  if (!read) {
    throw stackNotInState(ref, backend.bucket);
  }
  return { location: backend.store.location(ref), document: read.document };
}

/** The region to use for a stack when no --region was given. */
export function chooseStackRegion(stackName: string, known: StackRef[], defaultRegion: string): string {
  const regions = known.filter((ref) => ref.stackName === stackName).map((ref) => ref.region);
  if (regions.length === 1 && regions[0]) return regions[0];
  if (regions.length > 1 && !regions.includes(defaultRegion)) {
    throw new CdkdError(
      'STACK_REGION_AMBIGUOUS',
      `Stack ${stackName} has state in several regions: ${regions.join(', ')}.`,
      {
        hint: 'Name one with --region.',
      },
    );
  }
  return defaultRegion;
}

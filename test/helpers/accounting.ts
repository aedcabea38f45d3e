import { isCustomResourceType } from '../../src/providers/handled-types.js';
import { parseAnyStateKey } from '../../src/state/keys.js';
import type { StackRef } from '../../src/state/state-store.js';
import { Session } from '../../src/toolkit/session/session.js';
import { isSameResource, stackResources, type LiveResource } from './inventory.js';

/** A resource named by state or a journal entry, and where it is named. */
export interface NamedResource {
  type: string;
  physicalId: string;
  where: string;
}

/** What breaks "every resource the cloud holds is in state or the journal; every record names a live one". */
export interface Accounting {
  /** Live resources that no state record and no journal entry names. */
  untracked: string[];
  /** State records whose resource the sandbox does not hold. */
  deadRecords: string[];
}

/**
 * Types the sandbox lists no resource for: IAM holds a policy inside its principal, and a
 * custom resource is whatever its handler made.
 */
const UNLISTED = (type: string) => type === 'AWS::IAM::Policy' || isCustomResourceType(type);

function stacksWith(prefix: string, keys: readonly string[], file: string): StackRef[] {
  return keys.flatMap((key) => {
    const parsed = parseAnyStateKey(prefix, key, file);
    return parsed && 'stackName' in parsed ? [parsed] : [];
  });
}

/**
 * Reads every state document and rollback journal (tails applied) under `prefix` in `bucket`
 * through cdkd's own stores, and pairs them with what the sandbox holds. A journal entry counts
 * as naming a resource by its physical id, its previous physical id, a made resource's id or
 * the name its create sends.
 * Run it with the SDK pointed at the sandbox (`useSandbox` does that).
 */
export async function accountFor(
  sandboxUrl: string,
  options: { bucket?: string; prefix?: string } = {},
): Promise<Accounting> {
  const prefix = options.prefix ?? 'cdkd';
  const session = new Session({
    statePrefix: prefix,
    ...(options.bucket !== undefined && { stateBucket: options.bucket }),
  });
  const backend = await session.stateBackend();
  const keys = await backend.objects.listKeys(`${prefix}/`);

  const recorded: NamedResource[] = [];
  for (const stack of stacksWith(prefix, keys, 'state.json')) {
    const state = await backend.store.read(stack);
    for (const [logicalId, record] of Object.entries(state?.document.resources ?? {})) {
      recorded.push({
        type: record.type,
        physicalId: record.physicalId,
        where: `${stack.stackName} ${logicalId}`,
      });
    }
  }
  const journaled: NamedResource[] = [];
  for (const stack of stacksWith(prefix, keys, 'rollback-journal.json')) {
    const journal = await backend.journals.read(stack);
    for (const segment of journal?.document.segments ?? []) {
      for (const op of segment.operations) {
        // An in-flight create names its resource by the name it sends, where that was known before the call.
        const ids = [op.physicalId, op.previousPhysicalId, op.made?.physicalId, op.name];
        for (const id of ids) {
          if (typeof id !== 'string' || id === '') continue;
          for (const type of [op.type, op.previousType ?? op.type]) {
            journaled.push({ type, physicalId: id, where: `journal ${stack.stackName} ${op.logicalId}` });
          }
        }
      }
    }
  }

  const live = await stackResources(sandboxUrl);
  const named = [...recorded, ...journaled];
  const untracked = live
    .filter((resource) => !named.some((entry) => isSameResource(entry, resource)))
    .map((resource) => `${resource.type} ${resource.id}`);
  const deadRecords = recorded
    .filter((record) => !UNLISTED(record.type))
    .filter((record) => !live.some((resource: LiveResource) => isSameResource(record, resource)))
    .map((record) => `${record.where}: ${record.type} ${record.physicalId}`);
  return { untracked, deadRecords };
}

import { CdkdError } from '../../errors.js';
import { assetBucketName } from '../../state/bucket-names.js';
import { heldLocks, referenceDocuments, stateDocumentOf, type StateBackend } from '../../state/index.js';
import { callerOf } from '../session/caller.js';
import type { ToolkitIo } from '../io.js';
import type { Session } from '../session/session.js';
import { assetBucketStorage, type AssetStorage, type StoredAsset } from './stored-assets.js';
import { unreferencedAssets } from './unreferenced.js';

export { unreferencedAssets } from './unreferenced.js';
export type { StoredAsset } from './stored-assets.js';

export const DEFAULT_ROLLBACK_BUFFER_DAYS = 30;

export interface GcInput extends ToolkitIo {
  session: Session;
  region?: string;
  rollbackBufferDays: number;
  dryRun: boolean;
  signal?: AbortSignal;
}

export interface GcResult {
  /** Each storage searched: what it is, whether it exists, and what went (or would go, under --dry-run). */
  storages: { describe: string; found: boolean; stored: number; unreferenced: StoredAsset[] }[];
  deleted: boolean;
}

/**
 * `cdkd gc`: deletes the assets in cdkd's storage of the account and region that no document
 * in the state bucket names and that are older than the rollback buffer. Refused while any
 * stack holds a lock (a run in flight may be about to name an asset), checked again just
 * before deleting; `dryRun` lists and deletes nothing.
 */
export async function collectGarbage(input: GcInput): Promise<GcResult> {
  const caller = await callerOf(input.session, input.signal);
  const region = input.region ?? caller.region;
  const backend = await input.session.stateBackend();
  await refuseHeldLocks(backend);
  const storages: AssetStorage[] = [
    assetBucketStorage(await input.session.clients.s3(region), assetBucketName(caller.accountId, region)),
  ];
  const documents = (await referenceDocuments(backend.objects)).map((document) => document.text);
  const now = new Date();
  const found: GcResult['storages'] = [];
  for (const storage of storages) {
    const stored = await storage.list();
    const unreferenced = stored
      ? unreferencedAssets(stored, documents, { now, bufferDays: input.rollbackBufferDays })
      : [];
    found.push({
      describe: storage.describe,
      found: stored !== undefined,
      stored: stored?.length ?? 0,
      unreferenced,
    });
  }
  const doomed = found.some((entry) => entry.unreferenced.length > 0);
  if (input.dryRun || !doomed) return { storages: found, deleted: false };
  await refuseHeldLocks(backend);
  for (const [index, storage] of storages.entries()) {
    const unreferenced = found[index]!.unreferenced;
    if (unreferenced.length > 0) await storage.delete(unreferenced);
  }
  return { storages: found, deleted: true };
}

async function refuseHeldLocks(backend: StateBackend): Promise<void> {
  const locks = await heldLocks(backend.objects);
  if (locks.length === 0) return;
  const named = locks.map((key) => {
    const document = stateDocumentOf(backend.store.prefix, key);
    return document
      ? `${document.stack.stackName} (${document.stack.region})`
      : `s3://${backend.bucket}/${key}`;
  });
  throw new CdkdError(
    'GC_RUN_IN_FLIGHT',
    `cdkd gc deleted nothing: ${named.join(', ')} ${locks.length === 1 ? 'holds a lock' : 'hold locks'}, so a run may be about to deploy assets no state names yet.`,
    {
      hint: 'Run cdkd gc again once the run finishes; a lock a killed run left behind is cleared with cdkd force-unlock <stack>.',
    },
  );
}

import type { StoredAsset } from './stored-assets.js';

const DAY_MS = 86_400_000;

/**
 * The assets `cdkd gc` may delete: stored before the rollback buffer began, and named by no
 * state document searched (a stack's current state, a kept generation, a rollback journal).
 * A reference is found by the asset's name occurring anywhere in a document's text, so a
 * document that names it in any form keeps it: a false keep costs storage, a false delete
 * breaks a rollback.
 */
export function unreferencedAssets(
  assets: readonly StoredAsset[],
  documents: readonly string[],
  options: { now: Date; bufferDays: number },
): StoredAsset[] {
  const cutoff = options.now.getTime() - options.bufferDays * DAY_MS;
  return assets.filter(
    (asset) =>
      asset.storedAt.getTime() < cutoff &&
      !asset.names.some((name) => documents.some((text) => text.includes(name))),
  );
}

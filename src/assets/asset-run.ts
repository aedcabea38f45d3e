import type { AssetRun } from './publisher.js';

export type { AssetRun };

/** A new run's memory, empty. */
export function newAssetRun(): AssetRun {
  return { images: new Map(), registries: new Map(), announced: new Set() };
}

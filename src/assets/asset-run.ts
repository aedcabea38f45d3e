import type { ImagePublication } from './publisher.js';
import type { Registry } from './container/registry-login.js';

/**
 * What one deploy run shares across the stacks it publishes for: each image asset is
 * built and pushed once however many stacks name it, each registry logged in to once,
 * and each distinct build command announced once.
 */
export interface AssetRun {
  readonly images: Map<string, Promise<ImagePublication[]>>;
  /** Per region: the registry, logged in to. */
  readonly registries: Map<string, Promise<Registry>>;
  /** Build commands announced so far, as their joined argv. */
  readonly announced: Set<string>;
}

export function newAssetRun(): AssetRun {
  return { images: new Map(), registries: new Map(), announced: new Set() };
}

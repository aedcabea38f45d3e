import type { AssetRun } from './publisher.js';

export type { AssetRun };

/** A new run's memory, empty, with `limit` assets built or uploaded at once across its stacks. */
export function newAssetRun(limit: number): AssetRun {
  return { images: new Map(), registries: new Map(), announced: new Set(), slot: semaphore(limit) };
}

function semaphore(limit: number): AssetRun['slot'] {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // A waiter takes the slot over; otherwise it is free again.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

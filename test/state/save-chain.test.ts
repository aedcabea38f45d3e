import { describe, expect, it } from 'vitest';
import { SaveChain } from '../../src/state/save-chain.js';

interface Doc {
  saved: string[];
}

/** A writer whose writes the test completes or fails, each keeping what it wrote. */
function controlledWriter() {
  const writes: Array<{ snapshot: string[]; done: boolean; failed?: boolean; finish(ok: boolean): void }> =
    [];
  const write = (document: Doc) =>
    new Promise<string>((resolve, reject) => {
      const entry: (typeof writes)[number] = {
        snapshot: [...document.saved],
        done: false,
        finish(ok: boolean) {
          entry.done = true;
          if (ok) resolve(`"etag-${writes.indexOf(entry)}"`);
          else reject(new Error('write refused'));
        },
      };
      writes.push(entry);
    });
  return { writes, write };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A small deterministic PRNG, so a failing interleaving can be replayed. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('SaveChain coalescing', () => {
  it('saves asked for in one turn of the event loop share one write', async () => {
    const { writes, write } = controlledWriter();
    const chain = new SaveChain<Doc>(write, undefined);
    const doc: Doc = { saved: [] };
    const saves = ['A', 'B', 'C', 'D'].map((id) => {
      doc.saved.push(id);
      return chain.save(doc);
    });
    await turn();
    await turn();
    expect(writes.map((w) => w.snapshot)).toEqual([['A', 'B', 'C', 'D']]);
    writes[0]!.finish(true);
    await Promise.all(saves);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'never reports a change saved before a completed write included it (interleaving %i)',
    async (seed) => {
      const random = prng(seed);
      const { writes, write } = controlledWriter();
      const chain = new SaveChain<Doc>(write, undefined);
      const doc: Doc = { saved: [] };
      const outcomes = new Map<string, 'saved' | 'failed'>();
      const violations: string[] = [];
      const waits: Promise<void>[] = [];
      for (let i = 0; i < 60; i++) {
        const id = `R${i}`;
        doc.saved.push(id);
        waits.push(
          chain.save(doc).then(
            () => {
              // At this moment a completed, successful write must hold the change.
              const included = writes.some((w) => w.done && !w.failed && w.snapshot.includes(id));
              if (!included) violations.push(id);
              outcomes.set(id, 'saved');
            },
            () => {
              outcomes.set(id, 'failed');
            },
          ),
        );
        if (random() < 0.5) await turn();
        // Finish some of the open writes, one in eight refused.
        for (const w of writes) {
          if (!w.done && random() < 0.4) settle(w, random() >= 0.125);
        }
      }
      while (writes.some((w) => !w.done) || waits.length > outcomes.size) {
        for (const w of writes) if (!w.done) settle(w, true);
        await turn();
      }
      await Promise.all(waits);
      expect(violations).toEqual([]);
      expect(outcomes.size).toBe(60);
      // Fewer writes than saves: changes finishing together shared writes.
      expect(writes.length).toBeLessThan(60);
    },
  );
});

function settle(w: { done: boolean; failed?: boolean; finish(ok: boolean): void }, ok: boolean): void {
  w.failed = !ok;
  w.finish(ok);
}

import { describe, expect, it } from 'vitest';
import { putOwnWrite } from '../../src/state/own-writes.js';
import { PreconditionFailed } from '../../src/state/s3-objects.js';
import { MemoryObjects } from '../helpers/memory-objects.js';

const doc = (writer: string, generation: number, body = 'x') => JSON.stringify({ writer, generation, body });

/** What S3 holds when a refused write reads it back, and how the write ends. */
const rows: Array<[string, string | undefined, string, 'written' | 'kept' | 'refused']> = [
  ['this very write landed, its answer lost', doc('me', 2), doc('me', 2), 'kept'],
  [
    'an earlier write of ours landed unheard: this one goes against it',
    doc('me', 1),
    doc('me', 2),
    'written',
  ],
  ['a newer write of ours is stored: left as it is', doc('me', 3), doc('me', 2), 'kept'],
  ['another writer saved it', doc('them', 2), doc('me', 2), 'refused'],
  ['an unstamped document (an older cdkd)', JSON.stringify({ body: 'x' }), doc('me', 2), 'refused'],
  ['an unreadable document', '{torn', doc('me', 2), 'refused'],
  [
    'our text is unstamped: nothing proves the stored one ours',
    doc('me', 2),
    JSON.stringify({ body: 'y' }),
    'refused',
  ],
  ['the object is gone (If-Match on a missing key)', undefined, doc('me', 2), 'refused'],
];

describe('putOwnWrite after a refused precondition', () => {
  it.each(rows)('%s', async (_, stored, text, outcome) => {
    const memory = new MemoryObjects();
    if (stored !== undefined) await memory.put('k', stored);
    const before = memory.objects.get('k');
    const write = putOwnWrite(memory.asS3Objects(), 'k', text, { ifMatch: '"stale"' });
    if (outcome === 'refused') {
      await expect(write).rejects.toBeInstanceOf(PreconditionFailed);
      expect(memory.objects.get('k')).toEqual(before);
      return;
    }
    const etag = await write;
    const after = memory.objects.get('k')!;
    expect(etag).toBe(after.etag);
    expect(after.text).toBe(outcome === 'written' ? text : stored);
  });

  it('writes at once when the precondition holds', async () => {
    const memory = new MemoryObjects();
    const etag = await putOwnWrite(memory.asS3Objects(), 'k', doc('me', 1), { ifNoneMatch: '*' });
    expect(memory.objects.get('k')).toEqual({ text: doc('me', 1), etag });
  });
});

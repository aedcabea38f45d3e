import { describe, expect, it } from 'vitest';
import { unreferencedAssets, type StoredAsset } from '../../src/toolkit/gc/index.js';

const now = new Date('2026-12-05T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const object = (key: string, storedDaysAgo: number): StoredAsset => ({
  kind: 'object',
  location: `s3://assets/${key}`,
  names: [key],
  storedAt: daysAgo(storedDaysAgo),
});

describe('unreferencedAssets: what cdkd gc may delete', () => {
  const documents = ['{"template":{"Code":{"S3Key":"named.zip"}}}', '{"assets":[{"key":"kept-gen.zip"}]}'];
  const rows: Array<[string, StoredAsset, number, boolean]> = [
    ['unnamed and older than the buffer: deleted', object('orphan.zip', 31), 30, true],
    ['unnamed but within the buffer: kept', object('fresh.zip', 29), 30, false],
    ['unnamed, exactly at the buffer: kept', object('edge.zip', 30), 30, false],
    ['named by a current state: kept, however old', object('named.zip', 400), 30, false],
    ['named only by a kept generation: kept', object('kept-gen.zip', 400), 30, false],
    ['buffer 0: anything unnamed goes', object('today.zip', 0.001), 0, true],
  ];
  it.each(rows)('%s', (_, asset, bufferDays, deleted) => {
    expect(unreferencedAssets([asset], documents, { now, bufferDays })).toEqual(deleted ? [asset] : []);
  });

  it('an image is kept when a document names its digest or its tag', () => {
    const image: StoredAsset = {
      kind: 'image',
      location: 'repo:abc',
      names: ['abc', 'sha256:feed'],
      storedAt: daysAgo(90),
    };
    expect(unreferencedAssets([image], ['"ImageUri":"x@sha256:feed"'], { now, bufferDays: 30 })).toEqual([]);
    expect(unreferencedAssets([image], ['nothing'], { now, bufferDays: 30 })).toEqual([image]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunJournal } from '../../src/engine/journal/run-journal.js';
import {
  emptyStateDocument,
  type ResourceRecord,
  type StateDocument,
} from '../../src/state/documents/state-document.js';
import { JournalStore } from '../../src/state/journal-store.js';
import { MemoryObjects } from '../helpers/memory-objects.js';
import { serializeState } from '../../src/state/state-store.js';

const NOW = new Date('2026-12-01T10:00:00.000Z');

function record(physicalId: string, extra: Partial<ResourceRecord> = {}): ResourceRecord {
  return {
    type: 'AWS::SQS::Queue',
    physicalId,
    properties: { VisibilityTimeout: 30, Tags: [{ Key: 'k', Value: 'v"quoted"\n' }] },
    attributes: { Arn: `arn:aws:sqs:us-east-1:000000000000:${physicalId}` },
    provisionedBy: 'cc-api',
    dependencies: [],
    ...extra,
  };
}

function stateWithRecords(): StateDocument {
  const document = emptyStateDocument('Cached', 'us-east-1');
  document.stackId = undefined;
  document.template = { Resources: { A: { Type: 'AWS::SQS::Queue' } } };
  document.outputs = { Url: { value: 'https://example', exportName: 'Url' } };
  document.resources = { A: record('a'), B: record('b', { deletionPolicy: 'Retain', region: undefined }) };
  document.pendingDeletes = [{ logicalId: 'C', record: record('c-old') }];
  return document;
}

/** What the uncached serializer wrote: the reference the cached text must equal byte for byte. */
const plain = (document: StateDocument) => JSON.stringify({ ...document, updatedAt: NOW.toISOString() });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('serializeState from cached record texts', () => {
  it('writes exactly what JSON.stringify wrote, save after save, as records are replaced and removed', () => {
    const document = stateWithRecords();
    expect(serializeState(document)).toBe(plain(document));
    document.resources.A = record('a2', { observedProperties: { VisibilityTimeout: 60 } });
    document.resources.D = record('d');
    delete document.resources.B;
    document.pendingDeletes = [];
    expect(serializeState(document)).toBe(plain(document));
    expect(JSON.parse(serializeState(document))).toEqual(JSON.parse(plain(document)));
  });

  it('writes an empty document as before', () => {
    const document = emptyStateDocument('Empty', 'us-east-1');
    expect(serializeState(document)).toBe(plain(document));
  });

  it('fails the save, naming where, when a record was changed in place after its text was cached', () => {
    vi.stubEnv('CDKD_VERIFY_CACHED_JSON', 'true');
    const document = stateWithRecords();
    serializeState(document);
    document.resources.A!.attributes.Arn = 'changed in place';
    expect(() => serializeState(document)).toThrow(
      /cached JSON of the state document is stale.*changed in place/,
    );
  });

  it('reuses the cached text: without the check, a record changed in place keeps its old text', () => {
    vi.stubEnv('CDKD_VERIFY_CACHED_JSON', 'false');
    const document = stateWithRecords();
    serializeState(document);
    document.resources.A!.physicalId = 'changed in place';
    expect(serializeState(document)).not.toContain('changed in place');
  });
});

/** A journal store over objects in memory that keeps every text of the whole document written. */
function recordingStore(written: string[]): JournalStore {
  const objects = new MemoryObjects();
  const put = objects.put.bind(objects);
  objects.put = async (key, text, condition) => {
    if (key.endsWith('rollback-journal.json')) written.push(text);
    return put(key, text, condition);
  };
  return new JournalStore(objects.asS3Objects(), 'cdkd');
}

describe('the rollback journal from cached operation texts', () => {
  const ref = { stackName: 'Cached', region: 'us-east-1' };
  const run = { runId: 'run-1', flags: {}, previous: { parameters: {}, tags: {}, outputs: {}, imports: [] } };

  it('writes exactly what JSON.stringify wrote, first and after begin, complete, fail, the old copy deleted and a status', async () => {
    vi.stubEnv('CDKD_VERIFY_CACHED_JSON', 'false');
    const written: string[] = [];
    const journal = await RunJournal.open(recordingStore(written), ref, run);
    const first = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    expect(written.at(-1)).toBe(JSON.stringify(journal.document));
    const second = await journal.begin({
      logicalId: 'B',
      action: 'replace',
      type: 'AWS::SQS::Queue',
      previousPhysicalId: 'b-old',
      before: record('b-old'),
    });
    journal.complete(first, { physicalId: 'a', after: record('a') });
    journal.complete(second, { physicalId: 'b', after: record('b') });
    await journal.markOldDeleted('B', 'b-old');
    expect(journal.document.segments[0]!.operations[1]!.verdict).toEqual({ oldDeleted: true });
    const third = await journal.begin({ logicalId: 'C', action: 'create', type: 'AWS::SNS::Topic' });
    await journal.fail(third, { error: 'refused' });
    await journal.setStatus('failed');
    expect(written.at(-1)).toBe(JSON.stringify(journal.document));
  });

  it('serializes everything again after code elsewhere changed operations (a rollback, kept made resources)', async () => {
    vi.stubEnv('CDKD_VERIFY_CACHED_JSON', 'false');
    const written: string[] = [];
    const journal = await RunJournal.open(recordingStore(written), ref, run);
    const op = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    Object.assign(op, { status: 'completed', keptByDeploy: true });
    await journal.persist();
    expect(written.at(-1)).toBe(JSON.stringify(journal.document));
    expect(written.at(-1)).toContain('"keptByDeploy":true');
  });

  it('fails the save when an operation was changed behind the journal and the check is on', async () => {
    vi.stubEnv('CDKD_VERIFY_CACHED_JSON', 'true');
    const written: string[] = [];
    const journal = await RunJournal.open(recordingStore(written), ref, run);
    const op = await journal.begin({ logicalId: 'A', action: 'create', type: 'AWS::SQS::Queue' });
    op.error = 'changed behind the journal';
    const refused = await journal.begin({ logicalId: 'B', action: 'create', type: 'AWS::SQS::Queue' });
    await expect(journal.dropUnapplied(refused)).rejects.toThrow(
      /cached JSON of the rollback journal document is stale/,
    );
  });
});

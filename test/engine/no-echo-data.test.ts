import { describe, expect, it } from 'vitest';
import { NoEchoData } from '../../src/stack-state/no-echo-data.js';
import { isCdkdError } from '../../src/errors.js';
import type { NoEchoDocument } from '../../src/state/documents/no-echo-document.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';
import type { StateStore } from '../../src/state/state-store.js';

const REF = { stackName: 'S', region: 'us-east-1' };

/** A store holding the no-echo document in memory, counting reads and writes. */
function fakeStore(initial?: NoEchoDocument) {
  const calls = { reads: 0, writes: [] as Array<NoEchoDocument | undefined> };
  let stored = initial;
  const store = {
    async readNoEchoData() {
      calls.reads += 1;
      return stored;
    },
    async saveNoEchoData(_: unknown, document: NoEchoDocument | undefined) {
      calls.writes.push(document);
      stored = document;
    },
    noEchoLocation: () => 's3://bucket/cdkd/S/us-east-1/no-echo-data.json',
  } as unknown as StateStore;
  return { store, calls };
}

function record(physicalId: string, masked: boolean): ResourceRecord {
  return {
    type: 'Custom::T',
    physicalId,
    properties: {},
    attributes: { Password: '***' },
    provisionedBy: 'sdk',
    dependencies: [],
    ...(masked ? { noEchoAttributes: true as const } : {}),
  };
}

function documentWith(resources: Record<string, ResourceRecord>) {
  return { ...emptyStateDocument('S', 'us-east-1'), resources };
}

describe('NoEchoData', () => {
  it('reads nothing for a stack whose records name no masked attributes', async () => {
    const { store, calls } = fakeStore();
    await NoEchoData.open(store, REF, documentWith({ T: record('p', false) }));
    expect(calls.reads).toBe(0);
  });

  it('answers the kept value, and writes it once on the next persist', async () => {
    const { store, calls } = fakeStore();
    const data = await NoEchoData.open(store, REF, documentWith({}));
    expect(data.persist()).toBeUndefined();
    expect(data.keep('T', 'p', { Password: 'pw' }, { Password: '***' })).toEqual({ Password: '***' });
    expect(data.value('T', 'p', 'Password')).toBe('pw');
    await data.persist();
    expect(data.persist()).toBeUndefined();
    expect(calls.writes).toEqual([{ version: 1, resources: { T: { p: { Password: 'pw' } } } }]);
  });

  it('reopened, answers from the stored document; a missing value is NO_ECHO_DATA_MISSING', async () => {
    const { store } = fakeStore({ version: 1, resources: { T: { p: { Password: 'pw' } } } });
    const data = await NoEchoData.open(store, REF, documentWith({ T: record('p', true) }));
    expect(data.value('T', 'p', 'Password')).toBe('pw');
    const missing = (() => {
      try {
        return data.value('T', 'other', 'Password');
      } catch (error) {
        return error;
      }
    })();
    expect(isCdkdError(missing) && missing.code).toBe('NO_ECHO_DATA_MISSING');
  });

  it('prune keeps what records and pending deletes name, and deletes the object once nothing is left', async () => {
    const { store, calls } = fakeStore({
      version: 1,
      resources: { T: { old: { Password: 'a' }, new: { Password: 'b' } }, Gone: { g: { Password: 'c' } } },
    });
    const document = documentWith({ T: record('new', true) });
    document.pendingDeletes = [{ logicalId: 'T', record: record('old', true) }];
    const data = await NoEchoData.open(store, REF, document);
    await data.prune(document);
    expect(calls.writes.at(-1)).toEqual({
      version: 1,
      resources: { T: { old: { Password: 'a' }, new: { Password: 'b' } } },
    });
    await data.prune(documentWith({ T: record('new', false) }));
    expect(calls.writes.at(-1)).toBeUndefined();
    expect(calls.writes).toHaveLength(2);
  });
});

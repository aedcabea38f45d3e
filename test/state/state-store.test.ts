import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { CdkdError } from '../../src/errors.js';
import { emptyStateDocument } from '../../src/state/documents/state-document.js';
import { SaveChain } from '../../src/state/save-chain.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { stateWriter } from '../../src/state/state-store.js';
import { useSandbox } from '../helpers/sandbox.js';
import { s3Responses } from '../../src/providers/custom-resource/s3-responses.js';

useSandbox();
const stack = { stackName: 'Store', region: 'us-east-1' };
let backend: StateBackend;

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'state-store-test' }));
  backend = await openStateBackend(clients, 'state-store-test', 'cdkd');
});

describe('StateStore', () => {
  it('creates a new state with If-None-Match and reads it back with its ETag', async () => {
    const ref = { stackName: 'Fresh', region: 'us-east-1' };
    const etag = await backend.store.save(ref, emptyStateDocument('Fresh', 'us-east-1'), undefined);
    const read = await backend.store.read(ref);
    expect(read?.etag).toBe(etag);
    expect(read?.document.stackName).toBe('Fresh');
  });

  it('refuses to create over an existing state (another writer got there first)', async () => {
    const ref = { stackName: 'Raced', region: 'us-east-1' };
    await backend.store.save(ref, emptyStateDocument('Raced', 'us-east-1'), undefined);
    await expect(
      backend.store.save(ref, emptyStateDocument('Raced', 'us-east-1'), undefined),
    ).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
  });

  it('refuses a save carrying a stale ETag and leaves the other write in place', async () => {
    const first = await backend.store.save(stack, emptyStateDocument('Store', 'us-east-1'), undefined);
    const other = emptyStateDocument('Store', 'us-east-1');
    other.outputs = { Winner: { value: 'other' } };
    await backend.store.save(stack, other, first);
    const error = await backend.store
      .save(stack, emptyStateDocument('Store', 'us-east-1'), first)
      .catch((e) => e);
    expect(error).toBeInstanceOf(CdkdError);
    expect(error.code).toBe('STATE_CONFLICT');
    expect(error.hint).toContain('Re-run');
    expect((await backend.store.read(stack))?.document.outputs).toEqual({ Winner: { value: 'other' } });
  });

  it('refuses a state.json naming another stack as a foreign document, naming its key', async () => {
    const ref = { stackName: 'Victim', region: 'us-east-1' };
    await backend.store.save(ref, emptyStateDocument('Other', 'us-east-1'), undefined);
    const error = await backend.store.read(ref).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_DOCUMENT_FOREIGN' });
    expect((error as Error).message).toContain('cdkd/Victim/us-east-1/state.json');
    expect((error as Error).message).toContain('"Other"');
  });

  it('refuses a rollback journal naming another stack the same way', async () => {
    const ref = { stackName: 'JournalVictim', region: 'us-east-1' };
    await backend.journals.writer(ref)(
      { version: 1, stackName: 'Other', region: 'us-east-1', segments: [] },
      undefined,
    );
    const error = await backend.journals.read(ref).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_DOCUMENT_FOREIGN' });
    expect((error as Error).message).toContain('cdkd/JournalVictim/us-east-1/rollback-journal.json');
  });

  it('a save whose object vanished is a conflict too (If-Match on an absent key)', async () => {
    const ref = { stackName: 'Gone', region: 'us-east-1' };
    await expect(
      backend.store.save(ref, emptyStateDocument('Gone', 'us-east-1'), '"0123456789abcdef0123456789abcdef"'),
    ).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });

  it('names the key of a torn state.json', async () => {
    const ref = { stackName: 'Torn', region: 'us-east-1' };
    await backend.objects.s3.send(
      new PutObjectCommand({
        Bucket: 'state-store-test',
        Key: 'cdkd/Torn/us-east-1/state.json',
        Body: '{"vers',
      }),
    );
    await expect(backend.store.read(ref)).rejects.toMatchObject({
      code: 'STATE_DOCUMENT_INVALID',
      message: expect.stringContaining('s3://state-store-test/cdkd/Torn/us-east-1/state.json'),
    });
  });

  it('lists the stacks that have a state.json', async () => {
    const names = (await backend.store.list()).map((ref) => ref.stackName);
    expect(names).toEqual(expect.arrayContaining(['Fresh', 'Raced', 'Store', 'Torn']));
    expect(names).not.toContain('Gone');
  });
});

describe('the state bucket client', () => {
  /** The headers of each request `s3` sends from now on. */
  function sentHeaders(s3: StateBackend['objects']['s3']): Array<Record<string, string>> {
    const seen: Array<Record<string, string>> = [];
    s3.middlewareStack.add(
      (next) => async (args) => {
        seen.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low' },
    );
    return seen;
  }

  it('writes state with no request checksum, which the SDK would otherwise add to every PutObject', async () => {
    const sent = sentHeaders(backend.objects.s3);
    await backend.store.save(
      { stackName: 'NoChecksum', region: 'us-east-1' },
      emptyStateDocument('NoChecksum', 'us-east-1'),
      undefined,
    );
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]!).filter((name) => name.startsWith('x-amz-checksum-'))).toEqual([]);
    expect(sent[0]!['x-amz-sdk-checksum-algorithm']).toBeUndefined();

    const plainClient = await new AwsClients().s3();
    const plain = sentHeaders(plainClient);
    await plainClient.send(
      new PutObjectCommand({ Bucket: 'state-store-test', Key: 'checksummed', Body: '{}' }),
    );
    expect(plain[0]!['x-amz-checksum-crc32']).toBeDefined();
  });

  it("sends a state of 2 MB or more at once, without the SDK's Expect: 100-continue round trip", async () => {
    const sent = sentHeaders(backend.objects.s3);
    const large = emptyStateDocument('Large', 'us-east-1');
    large.outputs.Padding = { value: 'x'.repeat(3 * 1024 * 1024) };
    await backend.store.save({ stackName: 'Large', region: 'us-east-1' }, large, undefined);
    expect(Number(sent[0]!['content-length'])).toBeGreaterThan(3 * 1024 * 1024);
    expect(sent[0]!.Expect ?? sent[0]!.expect).toBeUndefined();

    const plainClient = await new AwsClients().s3();
    const plain = sentHeaders(plainClient);
    await plainClient.send(
      new PutObjectCommand({ Bucket: 'state-store-test', Key: 'large', Body: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(plain[0]!.Expect).toBe('100-continue');
  });

  it('signs custom-resource response URLs without the checksum of an empty body', async () => {
    const responses = s3Responses(backend.objects.s3, 'state-store-test', 'responses/');
    const { url } = await responses.prepare('request-1', 60);
    expect(new URL(url).searchParams.has('x-amz-checksum-crc32')).toBe(false);
    const answered = await fetch(url, { method: 'PUT', body: '{"Status":"SUCCESS"}' });
    expect(answered.status).toBe(200);
    expect(await responses.read('request-1')).toMatchObject({ kind: 'answered' });
  });
});

describe('SaveChain', () => {
  it('50 concurrent saves end with the last write and no conflict', async () => {
    const ref = { stackName: 'Chain', region: 'us-east-1' };
    const chain = new SaveChain(stateWriter(backend.store, ref), undefined);
    const saves = Array.from({ length: 50 }, (_, i) => {
      const doc = emptyStateDocument('Chain', 'us-east-1');
      doc.outputs = { Step: { value: i } };
      return chain.save(doc);
    });
    await Promise.all(saves);
    const read = await backend.store.read(ref);
    expect(read?.document.outputs).toEqual({ Step: { value: 49 } });
    expect(read?.etag).toBe(chain.currentEtag);
  });

  it('writes the document as it stands when the write happens, once per batch', async () => {
    const ref = { stackName: 'Snapshot', region: 'us-east-1' };
    const chain = new SaveChain(stateWriter(backend.store, ref), undefined);
    const doc = emptyStateDocument('Snapshot', 'us-east-1');
    const first = chain.save(doc);
    doc.outputs = { Value: { value: 'changed while the first write was in flight' } };
    const second = chain.save(doc);
    doc.outputs = { Value: { value: 'newest' } };
    const third = chain.save(doc);
    await Promise.all([first, second, third]);
    expect((await backend.store.read(ref))?.document.outputs).toEqual({ Value: { value: 'newest' } });
  });

  it('reports a conflict to every waiting caller and does not retry it', async () => {
    const ref = { stackName: 'ChainConflict', region: 'us-east-1' };
    await backend.store.save(ref, emptyStateDocument('ChainConflict', 'us-east-1'), undefined);
    const chain = new SaveChain(stateWriter(backend.store, ref), '"ffffffffffffffffffffffffffffffff"');
    const results = await Promise.allSettled([
      chain.save(emptyStateDocument('ChainConflict', 'us-east-1')),
      chain.save(emptyStateDocument('ChainConflict', 'us-east-1')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

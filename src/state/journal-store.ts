import { randomUUID } from 'node:crypto';
import { CdkdError } from '../errors.js';
import { arrayJson, objectJson, verifiedJson, type JsonFragments } from './cached-json.js';
import { parseDocument } from './documents/document-reader.js';
import {
  JOURNAL_DOCUMENT,
  JOURNAL_TAIL_DOCUMENT,
  type JournalDocument,
  type JournalTail,
} from './documents/journal-document.js';
import { applyTails, newerTailKeys, tailKey } from './journal-tails.js';
import { normalizeStatePrefix, parseAnyStateKey, stackStateKeys } from './keys.js';
import { putOwnWrite } from './own-writes.js';
import { PreconditionFailed, type S3Objects } from './s3-objects.js';
import type { DocumentWriter } from './save-chain.js';
import { foreignDocument, type StackRef } from './state-store.js';

export interface ReadJournal {
  /** The stored document with its writer's newer tails applied. */
  document: JournalDocument;
  /** The stored document's: what the next write of the whole document must match. */
  etag: string;
  /** Every tail key of the document's writer: superseded once another writer stores the document. */
  tailKeys: string[];
}

/** Tails read at once while a journal is read. */
const TAIL_READS_AT_ONCE = 16;

/**
 * Reads and writes `rollback-journal.json` beside `state.json`, with the same
 * ETag preconditions: the lock excludes other cdkd processes, the precondition
 * guards the object. A run's later changes to single entries are tails beside it
 * (journal-tails.ts); reading applies them.
 */
export class JournalStore {
  constructor(
    private readonly objects: S3Objects,
    readonly prefix: string,
  ) {}

  /** Every stack under the prefix that has a journal, nested stacks included. */
  async list(): Promise<StackRef[]> {
    const keys = await this.objects.listKeys(`${normalizeStatePrefix(this.prefix)}/`);
    return keys.flatMap((key) => {
      const parsed = parseAnyStateKey(this.prefix, key, 'rollback-journal.json');
      return parsed && 'stackName' in parsed ? [parsed] : [];
    });
  }

  /** The stacks with a journal among `stack` and its nested stacks at any depth, in its region: one listing. */
  async listTree(stack: StackRef): Promise<StackRef[]> {
    const keys = await this.objects.listKeys(`${this.prefix.replace(/\/+$/, '')}/${stack.stackName}/`);
    return keys.flatMap((key) => {
      const parsed = parseAnyStateKey(this.prefix, key, 'rollback-journal.json');
      return parsed && 'stackName' in parsed && parsed.region === stack.region ? [parsed] : [];
    });
  }

  location(stack: StackRef): string {
    return this.objects.location(this.key(stack));
  }

  async read(stack: StackRef): Promise<ReadJournal | undefined> {
    const key = this.key(stack);
    const stored = await this.objects.get(key);
    if (!stored) return undefined;
    const location = this.objects.location(key);
    const document = parseDocument(JOURNAL_DOCUMENT, location, stored.text);
    if (document.stackName !== stack.stackName)
      throw foreignDocument('rollback journal', stack, location, document.stackName);
    if (document.writer === undefined) return { document, etag: stored.etag, tailKeys: [] };
    const tailKeys = await this.objects.listKeys(`${this.tailsPrefix(stack)}${document.writer}/`);
    const tails = await this.readTails(newerTailKeys(tailKeys, document.generation));
    return { document: applyTails(document, tails), etag: stored.etag, tailKeys };
  }

  /** Stores operations' changes; the text is taken at once, so later changes to `tail` are not in it. */
  writeTail(stack: StackRef, tail: JournalTail): { key: string; written: Promise<void> } {
    const key = tailKey(this.tailsPrefix(stack), tail.writer, tail.generation);
    const written = putOwnWrite(this.objects, key, JSON.stringify(tail), { ifNoneMatch: '*' }).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof PreconditionFailed) throw journalConflict(stack, this.objects.location(key));
        throw error;
      },
    );
    return { key, written };
  }

  /** Deletes tails a newer write of the document superseded. */
  async dropTails(keys: readonly string[]): Promise<void> {
    await this.objects.deleteMany(keys);
  }

  /**
   * `serialize` gives the document's text: by default JSON.stringify's under a writer of its
   * own, which no tail extends; a run's journal stamps its own writer and generation.
   */
  writer(
    stack: StackRef,
    serialize: (document: JournalDocument) => string = (document) =>
      JSON.stringify(Object.assign(document, { writer: randomUUID(), generation: 0 })),
  ): DocumentWriter<JournalDocument> {
    return async (document, expectedEtag) => {
      const key = this.key(stack);
      try {
        // Stamped with its writer and generation: a write whose answer S3 lost is known as its own.
        return await putOwnWrite(
          this.objects,
          key,
          serialize(document),
          expectedEtag ? { ifMatch: expectedEtag } : { ifNoneMatch: '*' },
        );
      } catch (error) {
        if (error instanceof PreconditionFailed) throw journalConflict(stack, this.objects.location(key));
        throw error;
      }
    };
  }

  /**
   * The document first: tails without it are never read, so a kill in between loses nothing
   * kept. The tails are listed, so those an earlier killed removal left go too.
   */
  async remove(stack: StackRef): Promise<void> {
    await this.objects.delete(this.key(stack));
    await this.objects.deleteMany(await this.objects.listKeys(this.tailsPrefix(stack)));
  }

  private async readTails(keys: readonly string[]): Promise<JournalTail[]> {
    const tails: JournalTail[] = [];
    for (let at = 0; at < keys.length; at += TAIL_READS_AT_ONCE) {
      const batch = keys.slice(at, at + TAIL_READS_AT_ONCE);
      const read = await Promise.all(
        batch.map(async (key) => {
          const stored = await this.objects.get(key);
          return stored && parseDocument(JOURNAL_TAIL_DOCUMENT, this.objects.location(key), stored.text);
        }),
      );
      for (const tail of read) if (tail) tails.push(tail);
    }
    return tails;
  }

  private key(stack: StackRef): string {
    return stackStateKeys(this.prefix, stack.stackName, stack.region).journal;
  }

  private tailsPrefix(stack: StackRef): string {
    return stackStateKeys(this.prefix, stack.stackName, stack.region).journalTailsPrefix;
  }
}

/**
 * `JSON.stringify(document)` with each operation's text from `operations`: the caller
 * forgets an operation there before it changes it.
 */
export function serializeJournal(document: JournalDocument, operations: JsonFragments): string {
  const built = objectJson(document, (key) => {
    if (key !== 'segments') return undefined;
    const segments = arrayJson(document.segments, (segment) =>
      objectJson(segment, (field) =>
        field === 'operations'
          ? `"operations":${arrayJson(segment.operations, (op) => operations.text(op))}`
          : undefined,
      ),
    );
    return `"segments":${segments}`;
  });
  return verifiedJson(built, document, 'rollback journal');
}

export function emptyJournal(stack: StackRef): JournalDocument {
  return { version: 1, stackName: stack.stackName, region: stack.region, segments: [] };
}

function journalConflict(stack: StackRef, location: string): CdkdError {
  return new CdkdError(
    'STATE_CONFLICT',
    `The rollback journal of stack ${stack.stackName} (${stack.region}) changed since cdkd read it: another writer saved ${location}. cdkd did not overwrite it.`,
    { hint: 'Re-run the command: it re-reads the journal and acts on what the other writer left.' },
  );
}

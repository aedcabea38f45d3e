import { CdkdError } from '../errors.js';
import { arrayJson, objectJson, verifiedJson, type JsonFragments } from './cached-json.js';
import { parseDocument } from './documents/document-reader.js';
import { JOURNAL_DOCUMENT, type JournalDocument } from './documents/journal-document.js';
import { normalizeStatePrefix, parseAnyStateKey, stackStateKeys } from './keys.js';
import { PreconditionFailed, type S3Objects } from './s3-objects.js';
import type { DocumentWriter } from './save-chain.js';
import { foreignDocument, type StackRef } from './state-store.js';

export interface ReadJournal {
  document: JournalDocument;
  etag: string;
}

/**
 * Reads and writes `rollback-journal.json` beside `state.json`, with the same
 * ETag preconditions: the lock excludes other cdkd processes, the precondition
 * guards the object.
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
    return { document, etag: stored.etag };
  }

  /** `serialize` gives the document's text: JSON.stringify's, or the same built from cached fragments. */
  writer(
    stack: StackRef,
    serialize: (document: JournalDocument) => string = JSON.stringify,
  ): DocumentWriter<JournalDocument> {
    return async (document, expectedEtag) => {
      const key = this.key(stack);
      try {
        return await this.objects.put(
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

  async remove(stack: StackRef): Promise<void> {
    await this.objects.delete(this.key(stack));
  }

  private key(stack: StackRef): string {
    return stackStateKeys(this.prefix, stack.stackName, stack.region).journal;
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

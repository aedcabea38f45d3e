import { randomUUID } from 'node:crypto';
import { CdkdError } from '../errors.js';
import { arrayJson, JsonFragments, mapJson, objectJson, verifiedJson } from './cached-json.js';
import { parseDocument } from './documents/document-reader.js';
import { DRIFT_DOCUMENT, type DriftDocument } from './documents/drift-document.js';
import { NO_ECHO_DOCUMENT, type NoEchoDocument } from './documents/no-echo-document.js';
import { STATE_DOCUMENT, type StateDocument } from './documents/state-document.js';
import {
  isNestedSegment,
  normalizeStatePrefix,
  parseAnyStateKey,
  parseStateKey,
  stackStateKeys,
} from './keys.js';
import { putOwnWrite, type WriteStamp } from './own-writes.js';
import { PreconditionFailed, type S3Objects } from './s3-objects.js';
import type { DocumentWriter } from './save-chain.js';

export interface StackRef {
  stackName: string;
  region: string;
}

export interface ReadState {
  document: StateDocument;
  etag: string;
}

/**
 * Reads and writes `state.json`. Every save carries a precondition on the ETag
 * that was read (If-None-Match for a new stack); a conflicting save is refused
 * and never retried, because a re-run must re-read and plan against whatever
 * the other writer left (spec 003, "The state save and its conflict check").
 */
export class StateStore {
  constructor(
    private readonly objects: S3Objects,
    readonly prefix: string,
  ) {}

  location(stack: StackRef): string {
    return this.objects.location(this.key(stack));
  }

  async read(stack: StackRef): Promise<ReadState | undefined> {
    const key = this.key(stack);
    const stored = await this.objects.get(key);
    if (!stored) return undefined;
    const location = this.objects.location(key);
    const document = parseDocument(STATE_DOCUMENT, location, stored.text);
    if (document.stackName !== stack.stackName)
      throw foreignDocument('state', stack, location, document.stackName);
    return { document, etag: stored.etag };
  }

  /** Saves `document`; `expectedEtag` undefined means "the stack has no state yet". Returns the new ETag. */
  async save(stack: StackRef, document: StateDocument, expectedEtag: string | undefined): Promise<string> {
    return this.saveText(stack, serializeState(document), expectedEtag);
  }

  /** A text stamped by its writer (see own-writes.ts) is saved even when S3 lost the answer to a write that landed. */
  async saveText(stack: StackRef, text: string, expectedEtag: string | undefined): Promise<string> {
    const key = this.key(stack);
    try {
      return await putOwnWrite(
        this.objects,
        key,
        text,
        expectedEtag ? { ifMatch: expectedEtag } : { ifNoneMatch: '*' },
      );
    } catch (error) {
      if (error instanceof PreconditionFailed) throw stateConflict(stack, this.objects.location(key));
      throw error;
    }
  }

  async list(): Promise<StackRef[]> {
    const keys = await this.objects.listKeys(`${normalizeStatePrefix(this.prefix)}/`);
    return keys
      .map((key) => parseStateKey(this.prefix, key))
      .filter((ref): ref is StackRef => ref !== undefined)
      .sort((a, b) => a.stackName.localeCompare(b.stackName) || a.region.localeCompare(b.region));
  }

  /**
   * Every stack under the prefix, nested ones included, and the legacy documents that name
   * no region: what "anywhere under the state prefix" covers (spec 000).
   */
  async listEverywhere(): Promise<{ stacks: StackRef[]; legacy: string[] }> {
    const keys = await this.objects.listKeys(`${normalizeStatePrefix(this.prefix)}/`);
    const stacks: StackRef[] = [];
    const legacy: string[] = [];
    for (const key of keys) {
      const parsed = parseAnyStateKey(this.prefix, key);
      if (parsed && 'legacyStackName' in parsed) legacy.push(parsed.legacyStackName);
      else if (parsed) stacks.push(parsed);
    }
    return { stacks, legacy };
  }

  /**
   * Nested stacks directly under `parent` (`{parent}/{logicalId}`), in its region, found
   * by their state or their rollback journal: what a parent's destroy must reach even when
   * its own record of the child is missing, or a rollback left the child only a journal.
   */
  async listChildren(parent: StackRef): Promise<StackRef[]> {
    const base = `${normalizeStatePrefix(this.prefix)}/${parent.stackName}/`;
    const keys = await this.objects.listKeys(base);
    const children = new Set(
      keys.flatMap((key) => {
        const parts = key.slice(base.length).split('/');
        const document = parts[2] === 'state.json' || parts[2] === 'rollback-journal.json';
        return parts.length === 3 && parts[1] === parent.region && document && isNestedSegment(parts[0]!)
          ? [parts[0]!]
          : [];
      }),
    );
    return [...children].map((child) => ({
      stackName: `${parent.stackName}/${child}`,
      region: parent.region,
    }));
  }

  /**
   * Deletes a stack's state once nothing it recorded is left, and the no-echo data, drift summary
   * and current generation with it (the generation's kept versions stay until the state
   * bucket's history rule expires them, so gc still sees the assets they name).
   */
  async remove(stack: StackRef): Promise<void> {
    await this.objects.delete(this.key(stack));
    await this.objects.delete(this.keys(stack).noEchoData);
    await this.objects.delete(this.keys(stack).drift);
    await this.objects.delete(this.keys(stack).generation);
  }

  /** The last `cdkd drift` summary of the stack, or undefined when none was recorded. */
  async readDrift(stack: StackRef): Promise<DriftDocument | undefined> {
    const key = this.keys(stack).drift;
    const stored = await this.objects.get(key);
    return stored ? parseDocument(DRIFT_DOCUMENT, this.objects.location(key), stored.text) : undefined;
  }

  /** Replaces the summary: only the last check is kept, so the last writer is right. */
  async saveDrift(stack: StackRef, document: DriftDocument): Promise<void> {
    await this.objects.put(this.keys(stack).drift, JSON.stringify(document));
  }

  /** The stack's no-echo data, or undefined when it keeps none. */
  async readNoEchoData(stack: StackRef): Promise<NoEchoDocument | undefined> {
    const key = this.keys(stack).noEchoData;
    const stored = await this.objects.get(key);
    return stored ? parseDocument(NO_ECHO_DOCUMENT, this.objects.location(key), stored.text) : undefined;
  }

  noEchoLocation(stack: StackRef): string {
    return this.objects.location(this.keys(stack).noEchoData);
  }

  /** Written under the stack's lock, so without a precondition; undefined deletes it. */
  async saveNoEchoData(stack: StackRef, document: NoEchoDocument | undefined): Promise<void> {
    const key = this.keys(stack).noEchoData;
    if (document === undefined) await this.objects.delete(key);
    else await this.objects.put(key, JSON.stringify(document));
  }

  private key(stack: StackRef): string {
    return this.keys(stack).state;
  }

  private keys(stack: StackRef) {
    return stackStateKeys(this.prefix, stack.stackName, stack.region);
  }
}

/**
 * A save-chain writer for one stack's `state.json`: each write is stamped with this writer's
 * id and count, so a write whose answer S3 lost is recognised as its own (own-writes.ts).
 */
export function stateWriter(store: StateStore, stack: StackRef): DocumentWriter<StateDocument> {
  const writer = randomUUID();
  let generation = 0;
  return (document, expectedEtag) =>
    store.saveText(stack, serializeState(document, { writer, generation: ++generation }), expectedEtag);
}

/**
 * Records are replaced, never changed in place, once a state document holds them: their
 * text is cached per record object (and a template's per template object).
 */
const fragments = new JsonFragments();

/**
 * Compact JSON: the document is rewritten after every resource, so its size is the cost;
 * only the records changed since the last save are serialized again.
 */
export function serializeState(document: StateDocument, stamp?: WriteStamp): string {
  const stamped = { ...document, updatedAt: new Date().toISOString(), ...stamp };
  const built = objectJson(stamped, (key) => {
    if (key === 'resources') return `"resources":${mapJson(document.resources, fragments)}`;
    if (key === 'pendingDeletes') {
      const pending = arrayJson(document.pendingDeletes, (entry) =>
        objectJson(entry, (field, record) =>
          field === 'record' ? fragments.text(record as object, field) : undefined,
        ),
      );
      return `"pendingDeletes":${pending}`;
    }
    if (key === 'template' && document.template) return fragments.text(document.template, key);
    return undefined;
  });
  return verifiedJson(built, stamped, 'state');
}

/** A document under this stack's key that names another stack is never used as this stack's. */
export function foreignDocument(kind: string, stack: StackRef, location: string, named: string): CdkdError {
  return new CdkdError(
    'STATE_DOCUMENT_FOREIGN',
    `The ${kind} document ${location} names stack "${named}", not ${stack.stackName}: it is not this stack's, so cdkd does not use it.`,
    {
      hint: `Restore this stack's own document from the bucket's version history, or move ${location} to where stack "${named}" keeps its documents.`,
    },
  );
}

function stateConflict(stack: StackRef, location: string): CdkdError {
  return new CdkdError(
    'STATE_CONFLICT',
    `The state of stack ${stack.stackName} (${stack.region}) changed since cdkd read it: another writer saved ${location}. cdkd did not overwrite it.`,
    { hint: 'Re-run the command: it re-reads the state and plans against what the other writer left.' },
  );
}

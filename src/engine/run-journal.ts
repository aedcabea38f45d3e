import type { PlannedOperation } from '../plan/index.js';
import type {
  JournalDocument,
  JournalOperation,
  JournalSegment,
  StackGeneration,
} from '../state/documents/journal-document.js';
import { JsonFragments } from '../state/cached-json.js';
import { emptyJournal, serializeJournal, type JournalStore } from '../state/journal-store.js';
import { SaveChain } from '../state/save-chain.js';
import type { StackRef } from '../state/state-store.js';
import { CDKD_VERSION } from '../version.js';

export type OperationDraft = Omit<JournalOperation, 'seq' | 'status'>;

/** The policies a journal entry carries. */
export function policies(
  op: Pick<PlannedOperation, 'deletionPolicy' | 'updateReplacePolicy'>,
): Pick<OperationDraft, 'deletionPolicy' | 'updateReplacePolicy'> {
  return {
    ...(op.deletionPolicy ? { deletionPolicy: op.deletionPolicy } : {}),
    ...(op.updateReplacePolicy ? { updateReplacePolicy: op.updateReplacePolicy } : {}),
  };
}

export interface RunInfo {
  runId: string;
  flags: JournalSegment['flags'];
  previous: StackGeneration;
  command?: JournalSegment['command'];
}

/**
 * The write-ahead journal of one deploy or destroy run: each mutation is recorded before
 * its call is sent and marked completed or failed after, so a process killed
 * in between leaves an entry the next rollback reconciles by reading the cloud.
 * The run's segment is appended on its first mutation; a run that changes
 * nothing writes no journal.
 */
export class RunJournal {
  private readonly chain: SaveChain<JournalDocument>;
  /**
   * Each operation's text, kept while this journal alone changes it (forgotten before each
   * change); a save after code elsewhere changed the document serializes all of it again.
   */
  private readonly fragments = new JsonFragments();
  private segment: JournalSegment | undefined;
  /** Not the operation count: a dropped operation must not hand its seq to a later one. */
  private nextSeq = 0;
  /** The last write failed: what `complete` marked may not be stored (see `flush`). */
  private unwritten = false;

  private constructor(
    private readonly store: JournalStore,
    readonly ref: StackRef,
    readonly document: JournalDocument,
    etag: string | undefined,
    private readonly run: RunInfo | undefined,
  ) {
    this.chain = new SaveChain(
      store.writer(ref, (document) => serializeJournal(document, this.fragments)),
      etag,
    );
  }

  /** `run` is absent when the journal is opened to be replayed rather than written by a deploy. */
  static async open(store: JournalStore, ref: StackRef, run?: RunInfo): Promise<RunJournal> {
    const read = await store.read(ref);
    return new RunJournal(store, ref, read?.document ?? emptyJournal(ref), read?.etag, run);
  }

  get runId(): string | undefined {
    return this.run?.runId;
  }

  /** This run's segment, once it has recorded anything. */
  get current(): JournalSegment | undefined {
    return this.segment;
  }

  /** Records an operation as in flight; resolves once that record is stored. */
  async begin(draft: OperationDraft): Promise<JournalOperation> {
    const segment = this.openSegment();
    const op: JournalOperation = { ...draft, seq: this.nextSeq++, status: 'in-flight' };
    segment.operations.push(op);
    await this.save();
    return op;
  }

  /**
   * Marks an operation completed; called once the state change it made is stored. The caller
   * never waits for the mark: a rollback after a kill settles an in-flight operation from
   * state (reconcile.ts). Where that settling derives exactly this mark (a create or a delete),
   * it is not written on its own but rides with the next journal write (a dependent's `begin`,
   * the run's status); any other mark (an update's verdict) is written now. A failed write is
   * written again by `flush`.
   */
  complete(op: JournalOperation, outcome: Partial<OperationDraft>): void {
    this.fragments.forget(op);
    Object.assign(op, outcome, { status: 'completed' });
    if (derivedFromState(op)) return;
    // Nobody waits for this write: a failure is kept in `unwritten` (see `save`) for `flush`.
    this.save().catch(() => undefined);
  }

  /** Adds what an operation in flight learned (Cloud Control's request token) to its record. */
  note(op: JournalOperation, facts: Partial<OperationDraft>): Promise<void> {
    this.fragments.forget(op);
    Object.assign(op, facts);
    return this.save();
  }

  fail(op: JournalOperation, outcome: Partial<OperationDraft>): Promise<void> {
    this.fragments.forget(op);
    Object.assign(op, outcome, { status: 'failed' });
    return this.save();
  }

  /**
   * Removes an operation that applied nothing, so no rollback reconciles it: a create its
   * provider refused before changing anything (another resource holds its explicit name).
   */
  dropUnapplied(op: JournalOperation): Promise<void> {
    const operations = this.segment?.operations ?? [];
    const index = operations.indexOf(op);
    if (index < 0) return Promise.resolve();
    operations.splice(index, 1);
    return this.save();
  }

  /** The cleanup phase deleted the old copy a replacement of this run kept as a pending delete. */
  markOldDeleted(logicalId: string, physicalId: string): Promise<void> {
    const op = this.segment?.operations.find(
      (candidate) =>
        candidate.logicalId === logicalId &&
        candidate.action === 'replace' &&
        candidate.previousPhysicalId === physicalId,
    );
    if (!op) return Promise.resolve();
    this.fragments.forget(op);
    op.verdict = { ...op.verdict, oldDeleted: true };
    return this.save();
  }

  /** Called once a run's operations are done, when code elsewhere may have changed them. */
  setStatus(status: JournalSegment['status']): Promise<void> {
    if (!this.segment) return Promise.resolve();
    this.segment.status = status;
    this.fragments.forgetAll();
    return this.save();
  }

  /** Resolves once every change is stored; throws when the last write failed. */
  async flush(): Promise<void> {
    await this.chain.flush();
    if (this.unwritten) await this.save();
  }

  private openSegment(): JournalSegment {
    if (this.segment) return this.segment;
    if (!this.run) throw new Error('a journal opened for replay records no new operations');
    this.segment = {
      runId: this.run.runId,
      startedAt: new Date().toISOString(),
      cdkdVersion: CDKD_VERSION,
      flags: this.run.flags,
      previous: this.run.previous,
      ...(this.run.command ? { command: this.run.command } : {}),
      status: 'running',
      operations: [],
      importMarks: [],
    };
    this.document.segments.push(this.segment);
    return this.segment;
  }

  private save(): Promise<void> {
    const written = this.chain.save(this.document);
    // Writes settle in order, and each holds the whole document: the newest outcome decides.
    written.then(
      () => {
        this.unwritten = false;
      },
      () => {
        this.unwritten = true;
      },
    );
    return written;
  }

  /** Writes `document` as it now stands (after a rollback reduced it), or deletes it when it holds nothing. */
  async persist(): Promise<void> {
    await this.chain.flush();
    this.fragments.forgetAll();
    if (this.document.segments.length === 0) {
      if (this.chain.currentEtag !== undefined) await this.store.remove(this.ref);
      this.chain.forget();
      return;
    }
    await this.save();
  }
}

/**
 * What reconcile.ts derives for an in-flight operation once its state change is stored: a create
 * completed with the record's id, a delete completed. An update's or a replacement's verdict it cannot.
 */
function derivedFromState(op: JournalOperation): boolean {
  return op.action === 'create' || op.action === 'delete';
}

import { randomUUID } from 'node:crypto';
import type {
  JournalDocument,
  JournalOperation,
  JournalSegment,
  StackGeneration,
  StackRef,
} from '../../state/index.js';
import { JsonFragments } from '../../state/cached-json.js';
import { emptyJournal, serializeJournal, type JournalStore } from '../../state/journal-store.js';
import { SaveChain } from '../../state/save-chain.js';
import { CDKD_VERSION } from '../../version.js';
import type { InFlightFact, OperationDraft, OperationObserver, OperationOutcome } from '../execute/index.js';

/** How long a change that may wait waits for another to share a tail with. */
const SOON_MS = 20;
/**
 * Tails written since the document was, after which the document is written again in the
 * background and the tails it holds deleted: a reader after a kill reads at most about this
 * many, and a run's end deletes as few.
 */
const TAILS_BEFORE_REWRITE = 64;

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
 * nothing writes no journal. Once this journal has stored the document, each later
 * change to one of its run's operations is a tail of its own (journal-tails.ts): an
 * operation's call waits for a small write, not behind a rewrite of the whole document.
 */
export class RunJournal implements OperationObserver<JournalOperation> {
  private readonly chain: SaveChain<JournalDocument>;
  /**
   * Each operation's text, kept while this journal alone changes it (forgotten before each
   * change); a save after code elsewhere changed the document serializes all of it again.
   */
  private readonly fragments = new JsonFragments();
  private segment: JournalSegment | undefined;
  /** Not the operation count: a dropped operation must not hand its seq to a later one. */
  private nextSeq = 0;
  /** Names this journal's writes: only its own tails extend the document it stored. */
  private readonly writer = randomUUID();
  /** Counts this journal's writes, the document's and the tails'; a reader applies the newer. */
  private generation = 0;
  /** The generation of the newest write of the whole document that is stored (0: none yet). */
  private storedThrough = 0;
  /** A stored write of the whole document holds this run's segment: tails of its operations may follow. */
  private segmentStored = false;
  /** The generation of the newest write that failed: unless a later document holds it, `flush` writes again. */
  private failedThrough = 0;
  /** The tail the next changes go in, and what starts its write. */
  private nextTail:
    { operations: Set<JournalOperation>; written: Promise<void>; start: () => void } | undefined;
  /** Each tail this journal wrote or read and has not deleted, by generation (0: an earlier writer's). */
  private readonly tailKeys = new Map<string, number>();
  /** Tails whose write has not settled, which are not deleted until it has. */
  private readonly pendingTails = new Map<string, Promise<void>>();
  private tailsSinceDocument = 0;

  private constructor(
    private readonly store: JournalStore,
    readonly ref: StackRef,
    readonly document: JournalDocument,
    etag: string | undefined,
    private readonly run: RunInfo | undefined,
    /** The earlier writer's tails, applied to `document`, and superseded by this journal's first write. */
    supersededTails: readonly string[],
  ) {
    for (const key of supersededTails) this.tailKeys.set(key, 0);
    const write = store.writer(ref, (document) => serializeJournal(document, this.fragments));
    this.chain = new SaveChain(async (document, expectedEtag) => {
      const generation = ++this.generation;
      Object.assign(document, { writer: this.writer, generation });
      const holdsSegment = this.segment !== undefined && document.segments.includes(this.segment);
      try {
        const stored = await write(document, expectedEtag);
        this.storedThrough = generation;
        if (holdsSegment) this.segmentStored = true;
        this.tailsSinceDocument = 0;
        this.dropTailsBefore(generation);
        return stored;
      } catch (error) {
        this.failedThrough = Math.max(this.failedThrough, generation);
        throw error;
      }
    }, etag);
  }

  /** `run` is absent when the journal is opened to be replayed rather than written by a deploy. */
  static async open(store: JournalStore, ref: StackRef, run?: RunInfo): Promise<RunJournal> {
    const read = await store.read(ref);
    return new RunJournal(
      store,
      ref,
      read?.document ?? emptyJournal(ref),
      read?.etag,
      run,
      read?.tailKeys ?? [],
    );
  }

  get runId(): string | undefined {
    return this.run?.runId;
  }

  /** This run's segment, once it has recorded anything. */
  get current(): JournalSegment | undefined {
    return this.segment;
  }

  /** The executor's observer: an operation is in flight once `before` resolves. */
  before(draft: OperationDraft): Promise<JournalOperation> {
    return this.begin(draft);
  }

  during(op: JournalOperation, fact: InFlightFact): Promise<void> {
    return 'acceptedRequest' in fact ? this.note(op, fact) : this.markDeleted(op);
  }

  async after(op: JournalOperation, outcome: OperationOutcome): Promise<void> {
    if (outcome.status === 'completed') this.complete(op, outcome.facts);
    else if (outcome.status === 'failed') await this.fail(op, outcome.facts);
    else await this.dropUnapplied(op);
  }

  /** Records an operation as in flight; resolves once that record is stored. */
  async begin(draft: OperationDraft): Promise<JournalOperation> {
    const segment = this.openSegment();
    const op: JournalOperation = { ...draft, seq: this.nextSeq++, status: 'in-flight' };
    segment.operations.push(op);
    await this.record(op);
    return op;
  }

  /**
   * Marks an operation completed; called once the state change it made is stored. The caller
   * never waits for the mark: a rollback after a kill settles an in-flight operation from
   * state (reconcile.ts). Where that settling derives exactly this mark (a create or a delete),
   * it is not written on its own but rides with the next write of the whole document (the run's
   * status, or the rewrite every TAILS_BEFORE_REWRITE tails); any other mark (an update's
   * verdict) is written now. A failed write is written again by `flush`.
   */
  complete(op: JournalOperation, outcome: Partial<OperationDraft>): void {
    this.fragments.forget(op);
    Object.assign(op, outcome, { status: 'completed' });
    if (derivedFromState(op)) return;
    // Nobody waits for this write: a failure is kept in `failedThrough` for `flush`.
    this.record(op).catch(() => undefined);
  }

  /**
   * Adds what an operation in flight learned (Cloud Control's request token) to its record.
   * The caller waits on the cloud meanwhile (a status check a second away), so the fact rides
   * with the next change written, or on its own a moment later.
   */
  note(op: JournalOperation, facts: Partial<OperationDraft>): Promise<void> {
    this.fragments.forget(op);
    Object.assign(op, facts);
    return this.record(op, 'soon');
  }

  fail(op: JournalOperation, outcome: Partial<OperationDraft>): Promise<void> {
    this.fragments.forget(op);
    Object.assign(op, outcome, { status: 'failed' });
    return this.record(op);
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
    return op ? this.markDeleted(op) : Promise.resolve();
  }

  private markDeleted(op: JournalOperation): Promise<void> {
    this.fragments.forget(op);
    op.verdict = { ...op.verdict, oldDeleted: true };
    return this.record(op);
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
    await this.settle();
    if (this.failedThrough > this.storedThrough) await this.save();
  }

  /** Waits for every write asked for, failed or not. */
  private async settle(): Promise<void> {
    await this.chain.flush();
    if (this.nextTail) await this.nextTail.written.catch(() => undefined);
    await Promise.allSettled([...this.pendingTails.values()]);
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

  /**
   * Stores a change to `op`: once this journal stored the document holding `op`'s run, in a
   * tail shared with the changes asked for in the same turn of the event loop. A change that
   * may wait (`soon`) joins the next tail, or is written after at most SOON_MS.
   */
  private record(op: JournalOperation, when: 'now' | 'soon' = 'now'): Promise<void> {
    const segment = this.segment;
    if (!this.segmentStored || !segment?.operations.includes(op)) return this.save();
    if (!this.nextTail) {
      const operations = new Set<JournalOperation>();
      let start: () => void = () => {};
      const started = new Promise<void>((resolve) => (start = resolve));
      const timer = setTimeout(start, SOON_MS);
      const written = started.then(() => {
        clearTimeout(timer);
        this.nextTail = undefined;
        return this.writeTail(segment, operations);
      });
      this.nextTail = { operations, written, start };
    }
    this.nextTail.operations.add(op);
    if (when === 'now') setImmediate(this.nextTail.start);
    return this.nextTail.written;
  }

  private writeTail(segment: JournalSegment, changed: ReadonlySet<JournalOperation>): Promise<void> {
    // An operation dropped since it changed is gone from the document too.
    const operations = segment.operations.filter((op) => changed.has(op));
    if (operations.length === 0) return Promise.resolve();
    const generation = ++this.generation;
    const { key, written } = this.store.writeTail(this.ref, {
      version: 1,
      writer: this.writer,
      generation,
      runId: segment.runId,
      operations,
    });
    this.tailKeys.set(key, generation);
    this.pendingTails.set(key, written);
    written.then(
      () => this.tailSettled(key),
      () => {
        this.tailSettled(key);
        this.failedThrough = Math.max(this.failedThrough, generation);
      },
    );
    return written;
  }

  private tailSettled(key: string): void {
    this.pendingTails.delete(key);
    this.tailsSinceDocument += 1;
    // Nobody waits for this write; a failure is kept in `failedThrough` for `flush`.
    if (this.tailsSinceDocument === TAILS_BEFORE_REWRITE) this.save().catch(() => undefined);
  }

  private save(): Promise<void> {
    return this.chain.save(this.document);
  }

  /**
   * Tails older than a stored document are never read again; deleting them only tidies the
   * bucket, so a failure leaves them for the journal's removal.
   */
  private dropTailsBefore(generation: number): void {
    const keys = [...this.tailKeys]
      .filter(([key, tailGeneration]) => tailGeneration < generation && !this.pendingTails.has(key))
      .map(([key]) => key);
    if (keys.length === 0) return;
    for (const key of keys) this.tailKeys.delete(key);
    this.store.dropTails(keys).catch(() => keys.forEach((key) => this.tailKeys.set(key, 0)));
  }

  /** Writes `document` as it now stands (after a rollback reduced it), or deletes it when it holds nothing. */
  async persist(): Promise<void> {
    await this.settle();
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

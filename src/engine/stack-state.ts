import {
  emptyStateDocument,
  type ResourceRecord,
  type StateDocument,
} from '../state/documents/state-document.js';
import { SaveChain } from '../state/save-chain.js';
import { stateWriter, type StackRef, type StateStore } from '../state/state-store.js';

/**
 * The in-memory state of one stack during a deploy or destroy. Every change is
 * followed by a save through the chain, so a crash loses at most the
 * operations in flight (spec 003, "How cdkd prevents orphans").
 */
export class StackState {
  private readonly chain: SaveChain<StateDocument>;

  constructor(
    store: StateStore,
    readonly ref: StackRef,
    readonly document: StateDocument,
    etag: string | undefined,
  ) {
    this.chain = new SaveChain(stateWriter(store, ref), etag);
  }

  /** The stack's state as stored, or an empty document for a stack with none yet. */
  static async open(store: StateStore, ref: StackRef): Promise<StackState> {
    const read = await store.read(ref);
    return new StackState(
      store,
      ref,
      read?.document ?? emptyStateDocument(ref.stackName, ref.region),
      read?.etag,
    );
  }

  /** True when `open` found no stored state. */
  get isNew(): boolean {
    return this.chain.currentEtag === undefined;
  }

  record(logicalId: string): ResourceRecord | undefined {
    return this.document.resources[logicalId];
  }

  setRecord(logicalId: string, record: ResourceRecord): Promise<void> {
    this.document.resources[logicalId] = record;
    return this.save();
  }

  removeRecord(logicalId: string): Promise<void> {
    delete this.document.resources[logicalId];
    return this.save();
  }

  /**
   * A replacement's new record and, unless it is retained, the old one as a pending delete,
   * in one save: no stored state names the new copy while forgetting the old one.
   */
  replaceRecord(logicalId: string, record: ResourceRecord, old?: ResourceRecord): Promise<void> {
    this.document.resources[logicalId] = record;
    if (old) this.document.pendingDeletes.push({ logicalId, record: old });
    return this.save();
  }

  removePendingDelete(physicalId: string, type: string): Promise<void> {
    this.document.pendingDeletes = this.document.pendingDeletes.filter(
      (pending) => !(pending.record.physicalId === physicalId && pending.record.type === type),
    );
    return this.save();
  }

  save(): Promise<void> {
    return this.chain.save(this.document);
  }

  flush(): Promise<void> {
    return this.chain.flush();
  }
}

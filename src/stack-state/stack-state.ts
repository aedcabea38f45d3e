import {
  emptyStateDocument,
  type ResourceRecord,
  type StateDocument,
} from '../state/documents/state-document.js';
import { SaveChain } from '../state/save-chain.js';
import { stateWriter, type StackRef, type StateStore } from '../state/state-store.js';
import { isDeepStrictEqual } from 'node:util';
import { maskEchoes } from './echoed-secrets.js';
import { maskedAttributes, NoEchoData } from './no-echo-data.js';

/** A provider's answer as a record stores it: its attributes, and whether they are NoEcho. */
export interface AnsweredAttributes {
  physicalId: string;
  attributes: Record<string, unknown>;
  noEcho?: boolean;
  /** The secrets the resource was sent (see maskedSecrets), masked wherever its attributes echo them. */
  secretsSent?: readonly string[];
}

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
    private readonly noEcho: NoEchoData,
  ) {
    this.chain = new SaveChain(stateWriter(store, ref), etag);
  }

  /** The stack's state as stored, or an empty document for a stack with none yet. */
  static async open(store: StateStore, ref: StackRef): Promise<StackState> {
    const read = await store.read(ref);
    const document = read?.document ?? emptyStateDocument(ref.stackName, ref.region);
    return new StackState(store, ref, document, read?.etag, await NoEchoData.open(store, ref, document));
  }

  /**
   * The record fields for a provider's answer: a NoEcho answer's attributes masked, their
   * values kept in the no-echo data (written before the next save names them).
   */
  answered(
    logicalId: string,
    answer: AnsweredAttributes,
  ): Pick<ResourceRecord, 'attributes' | 'noEchoAttributes'> {
    const masked = answer.noEcho
      ? maskedAttributes(answer.attributes)
      : maskEchoes(answer.attributes, answer.secretsSent ?? []);
    if (!answer.noEcho && isDeepStrictEqual(masked, answer.attributes))
      return { attributes: answer.attributes };
    return {
      attributes: this.noEcho.keep(logicalId, answer.physicalId, answer.attributes, masked),
      noEchoAttributes: true,
    };
  }

  /** `record` holding a provider's new answer instead of the one it recorded. */
  withAnswer(logicalId: string, record: ResourceRecord, answer: AnsweredAttributes): ResourceRecord {
    const next: ResourceRecord = {
      ...record,
      physicalId: answer.physicalId,
      ...this.answered(logicalId, answer),
    };
    if (!next.noEchoAttributes) delete next.noEchoAttributes;
    return next;
  }

  /** What Fn::GetAtt resolves to: a masked attribute's value from the no-echo data. */
  attribute(logicalId: string, attribute: string): unknown {
    const record = this.record(logicalId);
    if (!record || !Object.hasOwn(record.attributes, attribute)) return undefined;
    return record.noEchoAttributes
      ? this.noEcho.value(logicalId, record.physicalId, attribute)
      : record.attributes[attribute];
  }

  /** The stored document's ETag as last read or written; undefined when there is none. */
  get etag(): string | undefined {
    return this.chain.currentEtag;
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
    const noEcho = this.noEcho.persist();
    return noEcho ? noEcho.then(() => this.chain.save(this.document)) : this.chain.save(this.document);
  }

  /** Waits for every save; the no-echo data then keeps only what the records still name. */
  async flush(): Promise<void> {
    await this.chain.flush();
    await this.noEcho.prune(this.document);
  }
}

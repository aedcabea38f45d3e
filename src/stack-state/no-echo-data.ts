import { CdkdError } from '../errors.js';
import type { ResourceRecord, StateDocument, StackRef, StateStore } from '../state/index.js';
import { MASK } from '../template/index.js';

/**
 * Attributes state records masked: the `Data` of custom resources that answered `NoEcho: true`,
 * and what other resources echoed of a NoEcho value they were sent. CloudFormation masks
 * such Data in every view but still resolves Fn::GetAtt to it, in the same deploy and in later
 * ones; cdkd does the same without asking the handler again: state records the attributes
 * masked, and the values live in one object beside the state (deleted with it). That object is
 * written before the state save that first names it, so a stored record never points at
 * nothing, and pruned to the records still naming it when the stack's work ends.
 */
export class NoEchoData {
  private dirty = false;
  private writing: Promise<void> | undefined;

  private constructor(
    private readonly store: StateStore,
    private readonly ref: StackRef,
    /** logical id → physical id → Data. */
    private readonly entries: Map<string, Map<string, Record<string, unknown>>>,
    private stored: boolean,
  ) {}

  /** Reads the stack's object only when a record names it: stacks without NoEcho answers pay no call. */
  static async open(store: StateStore, ref: StackRef, document: StateDocument): Promise<NoEchoData> {
    const named = recordsOf(document).some(({ record }) => record.noEchoAttributes);
    const stored = named ? await store.readNoEchoData(ref) : undefined;
    const entries = new Map(
      Object.entries(stored?.resources ?? {}).map(([logicalId, byId]) => [
        logicalId,
        new Map(Object.entries(byId)),
      ]),
    );
    return new NoEchoData(store, ref, entries, stored !== undefined);
  }

  /** Keeps attributes whose record stores `masked` instead. */
  keep(
    logicalId: string,
    physicalId: string,
    data: Record<string, unknown>,
    masked: Record<string, unknown>,
  ): Record<string, unknown> {
    const byId = this.entries.get(logicalId) ?? new Map<string, Record<string, unknown>>();
    byId.set(physicalId, data);
    this.entries.set(logicalId, byId);
    this.dirty = true;
    return masked;
  }

  /** The value Fn::GetAtt resolves to for a record whose attributes are masked. */
  value(logicalId: string, physicalId: string, attribute: string): unknown {
    const data = this.entries.get(logicalId)?.get(physicalId);
    if (data && Object.hasOwn(data, attribute)) return data[attribute];
    throw new CdkdError(
      'NO_ECHO_DATA_MISSING',
      `${logicalId}.${attribute} is a NoEcho value its custom resource answered, and the stack's no-echo data (${this.store.noEchoLocation(this.ref)}) no longer holds it.`,
      {
        hint: `Restore that object from the bucket's version history, or change a property of ${logicalId} so its handler answers again, then deploy.`,
      },
    );
  }

  /**
   * Writes what changed since the last write; runs before every state save, which waits on the
   * answer. Undefined when nothing is written or being written, so most saves wait on nothing.
   */
  persist(): Promise<void> | undefined {
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const previous = this.writing?.catch(() => undefined) ?? Promise.resolve();
    const write = previous.then(() => this.write());
    this.writing = write;
    write.then(
      () => {
        if (this.writing === write) this.writing = undefined;
      },
      () => {
        // The save waiting on it fails; the next save writes again.
        this.dirty = true;
        if (this.writing === write) this.writing = undefined;
      },
    );
    return write;
  }

  /**
   * Forgets the answers no record (a pending delete's included, which a reversed replacement
   * restores) names as masked any more, and writes the rest.
   */
  prune(document: StateDocument): Promise<void> {
    const named = new Set(
      recordsOf(document)
        .filter(({ record }) => record.noEchoAttributes)
        .map(({ logicalId, record }) => key(logicalId, record.physicalId)),
    );
    for (const [logicalId, byId] of this.entries) {
      for (const physicalId of byId.keys()) {
        if (named.has(key(logicalId, physicalId))) continue;
        byId.delete(physicalId);
        this.dirty = true;
      }
      if (byId.size === 0) this.entries.delete(logicalId);
    }
    return this.persist() ?? Promise.resolve();
  }

  private async write(): Promise<void> {
    if (this.entries.size === 0) {
      if (this.stored) await this.store.saveNoEchoData(this.ref, undefined);
      this.stored = false;
      return;
    }
    const resources = Object.fromEntries(
      [...this.entries].map(([logicalId, byId]) => [logicalId, Object.fromEntries(byId)]),
    );
    await this.store.saveNoEchoData(this.ref, { version: 1, resources });
    this.stored = true;
  }
}

/** Every key of a NoEcho answer's Data, its value masked as state masks NoEcho parameters. */
export function maskedAttributes(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(data).map((key) => [key, MASK]));
}

function recordsOf(document: StateDocument): Array<{ logicalId: string; record: ResourceRecord }> {
  return [
    ...Object.entries(document.resources).map(([logicalId, record]) => ({ logicalId, record })),
    ...document.pendingDeletes,
  ];
}

function key(logicalId: string, physicalId: string): string {
  return JSON.stringify([logicalId, physicalId]);
}

/** Writes a serialized document under an ETag precondition and returns the new ETag. */
export type DocumentWriter<T> = (document: T, expectedEtag: string | undefined) => Promise<string>;

/**
 * Serializes the saves of one document so they never race each other on the
 * ETag. Saves requested while one is in flight are coalesced: only the newest
 * document is written next, and every waiting caller resolves with it. The
 * document is serialized when it is written, not when a save is asked for: a
 * large stack's state is written once per batch instead of once per resource.
 * A caller's save resolves only once a write that includes its change completed.
 */
export class SaveChain<T> {
  private etag: string | undefined;
  private inFlight: Promise<void> | undefined;
  private pending:
    { document: T; waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> } | undefined;

  constructor(
    private readonly write: DocumentWriter<T>,
    initialEtag: string | undefined,
  ) {
    this.etag = initialEtag;
  }

  /** The ETag of the last write this chain made (or was started with). */
  get currentEtag(): string | undefined {
    return this.etag;
  }

  /** After the document was deleted: the next save creates it again. */
  forget(): void {
    this.etag = undefined;
  }

  /**
   * Resolves once `document` is stored as it stands at write time, or a newer
   * document is: callers change it only synchronously, so every write is a consistent state.
   */
  save(document: T): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.pending) {
        this.pending.document = document;
        this.pending.waiters.push({ resolve, reject });
      } else {
        this.pending = { document, waiters: [{ resolve, reject }] };
      }
      this.inFlight ??= this.drain();
    });
  }

  /** Resolves when every requested save has been written (or has failed). */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async drain(): Promise<void> {
    // Saves asked for in the same turn of the event loop (resources whose calls returned
    // together) wait for each other and share the first write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending) {
      const batch = this.pending;
      this.pending = undefined;
      try {
        this.etag = await this.write(batch.document, this.etag);
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of batch.waiters) waiter.reject(error);
      }
    }
    this.inFlight = undefined;
  }
}

import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'lambda/async-invocations';

/** An accepted Event invocation, kept until it has run. */
export interface QueuedInvocation {
  requestId: string;
  region: string;
  functionName: string;
  qualifier?: string;
  payload: string;
  clientContext?: string;
}

/**
 * Event invocations: accepted (202) once written to storage, then run in the background.
 * One that was accepted but had not finished when the sandbox stopped runs again when a
 * sandbox starts on the same data dir (Lambda's async delivery is at least once, too).
 */
export class AsyncInvocations {
  private closing = false;

  private constructor(
    private readonly storage: Storage,
    private readonly run: (invocation: QueuedInvocation) => Promise<void>,
    private readonly leftover: QueuedInvocation[],
  ) {}

  static async load(
    storage: Storage,
    run: (invocation: QueuedInvocation) => Promise<void>,
  ): Promise<AsyncInvocations> {
    const leftover = (await storage.listDocuments<QueuedInvocation>(NAMESPACE)).map(({ doc }) => doc);
    return new AsyncInvocations(storage, run, leftover);
  }

  async enqueue(invocation: QueuedInvocation): Promise<void> {
    await this.storage.putDocument(NAMESPACE, invocation.requestId, invocation);
    this.start(invocation);
  }

  /** Runs what a previous sandbox accepted but did not finish. */
  resume(): void {
    for (const invocation of this.leftover.splice(0)) this.start(invocation);
  }

  /** Stops taking work; what is running is left to be killed with its process and kept for the next start. */
  close(): void {
    this.closing = true;
  }

  private start(invocation: QueuedInvocation): void {
    if (this.closing) return;
    void this.run(invocation)
      .then(async () => {
        if (!this.closing) await this.storage.deleteDocument(NAMESPACE, invocation.requestId);
      })
      .catch((error: unknown) => {
        process.stderr.write(
          `cdkd sandbox: Event invocation ${invocation.requestId} failed: ${String(error)}\n`,
        );
      });
  }
}

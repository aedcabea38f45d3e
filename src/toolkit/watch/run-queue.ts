/**
 * One run at a time: a trigger while a run is under way is remembered, and however many
 * arrive, they start exactly one more run once it ends (the changes they bring are all in
 * the next synthesis). A run that fails goes to `onError`, and the queue carries on.
 */
export class CoalescingQueue {
  private running: Promise<void> | undefined;
  private pending = false;
  private stopped = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts a run now, or queues one after the run under way. */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = this.loop();
  }

  /** Whether a run is under way. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Starts nothing more; resolves once the run under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending = false;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.pending = false;
      try {
        await this.run();
      } catch (error) {
        this.onError(error);
      }
    } while (this.pending && !this.stopped);
    this.running = undefined;
  }
}

import { sourceKind } from '../mapping-ops.js';
import type { PollerDeps } from './poller-deps.js';
import { pollQueue, type QueueState } from './sqs-source.js';
import { pollStream, type StreamState } from './stream-source.js';

/** Idle polls are this far apart in real time; a poll that found work polls again at once. */
const IDLE_MS = 250;

interface Poller {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  stopped: boolean;
  state: QueueState & StreamState;
}

/**
 * One poller per enabled mapping whose source the sandbox serves (SQS, DynamoDB Streams,
 * Kinesis), reading it as Lambda's event source mappings do and invoking the function with
 * each batch. `sync` after every mapping change starts and stops them.
 */
export class EventSourcePollers {
  private readonly pollers = new Map<string, Poller>();
  private closed = false;

  constructor(private readonly deps: PollerDeps) {}

  sync(): void {
    if (this.closed) return;
    const wanted = new Set(
      this.deps.store
        .allMappings()
        .filter((mapping) => mapping.enabled && sourceKind(mapping.eventSourceArn) !== 'other')
        .map((mapping) => mapping.uuid),
    );
    for (const [uuid, poller] of this.pollers) {
      if (!wanted.has(uuid)) this.stop(uuid, poller);
    }
    for (const uuid of wanted) {
      if (!this.pollers.has(uuid)) {
        const poller: Poller = { stopped: false, state: {} };
        this.pollers.set(uuid, poller);
        this.schedule(uuid, poller, 0);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.pollers.values()].map((poller) => poller.running);
    for (const [uuid, poller] of this.pollers) this.stop(uuid, poller);
    await Promise.allSettled(running);
  }

  private stop(uuid: string, poller: Poller): void {
    poller.stopped = true;
    clearTimeout(poller.timer);
    this.pollers.delete(uuid);
  }

  private schedule(uuid: string, poller: Poller, delay: number): void {
    if (poller.stopped) return;
    poller.timer = setTimeout(() => {
      poller.running = this.poll(uuid, poller).then((busy) => {
        poller.running = undefined;
        this.schedule(uuid, poller, busy ? 0 : IDLE_MS);
      });
    }, delay);
    poller.timer.unref();
  }

  /** One poll; true when it found work (so the next one comes at once). */
  private async poll(uuid: string, poller: Poller): Promise<boolean> {
    const mapping = this.deps.store.mapping(uuid);
    if (!mapping || !mapping.enabled || poller.stopped) return false;
    try {
      const kind = sourceKind(mapping.eventSourceArn);
      return kind === 'sqs'
        ? await pollQueue(this.deps, mapping, poller.state)
        : await pollStream(this.deps, mapping, poller.state, kind === 'dynamodb' ? 'dynamodb' : 'kinesis');
    } catch (error) {
      process.stderr.write(
        `cdkd sandbox: event source mapping ${uuid}: ${(error as Error)?.stack ?? String(error)}\n`,
      );
      return false;
    }
  }
}

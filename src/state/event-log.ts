import { CdkdError } from '../errors.js';
import { parseDocument } from './documents/document-reader.js';
import { EVENTS_DOCUMENT, type EventsDocument, type StackEvent } from './documents/events-document.js';
import { stackStateKeys } from './keys.js';
import { PreconditionFailed, type S3Objects } from './s3-objects.js';
import type { StackRef } from './state-store.js';

/** Fresh keys tried when one is already taken (If-None-Match refused it) before giving up. */
const KEY_ATTEMPTS = 5;
/** Event objects fetched at once by readEvents. */
const READ_CONCURRENCY = 16;

/**
 * The deployment events of one run of one stack. `record` buffers an event stamped with
 * the current time; `flush` appends the buffer as ONE new object under the stack's events
 * prefix, written with If-None-Match so no existing object is ever rewritten (the record is
 * append-only, and deliberately outlives the stack's state: a survivor's id must stay
 * findable after a destroy).
 *
 * Keys are `{eventsPrefix}{yyyymmddThhmmss.mmmZ}-{runId}-{counter}.json`, so listing them in
 * key order gives write order.
 */
export class EventLog {
  private buffer: StackEvent[] = [];
  private counter = 0;
  private lastStamp = '';
  private writing: Promise<void> = Promise.resolve();
  private readonly eventsPrefix: string;

  constructor(
    private readonly objects: S3Objects,
    prefix: string,
    readonly stack: StackRef,
    readonly runId: string,
  ) {
    this.eventsPrefix = stackStateKeys(prefix, stack.stackName, stack.region).eventsPrefix;
  }

  /** Events recorded and not yet flushed. */
  get pending(): number {
    return this.buffer.length;
  }

  record(event: Omit<StackEvent, 'timestamp' | 'runId'>): void {
    const timestamp = new Date().toISOString();
    // timestamp and runId lead the stored object, and are never the caller's.
    const stamped: StackEvent = { timestamp, runId: this.runId, ...event };
    stamped.timestamp = timestamp;
    stamped.runId = this.runId;
    this.buffer.push(stamped);
  }

  /**
   * Appends the buffered events as one new object; a no-op when nothing is buffered.
   * Flushes run one after another, in call order. A failed flush keeps its events buffered
   * (ahead of any recorded since), so a later flush writes them.
   */
  flush(): Promise<void> {
    const done = this.writing.then(() => this.writeBuffered());
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async writeBuffered(): Promise<void> {
    if (this.buffer.length === 0) return;
    const events = this.buffer;
    this.buffer = [];
    try {
      await this.append(events);
    } catch (error) {
      this.buffer = [...events, ...this.buffer];
      throw error;
    }
  }

  private async append(events: StackEvent[]): Promise<void> {
    const document: EventsDocument = {
      version: 1,
      stackName: this.stack.stackName,
      region: this.stack.region,
      runId: this.runId,
      events,
    };
    const text = JSON.stringify(document);
    let key = '';
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt += 1) {
      key = this.nextKey();
      try {
        await this.objects.put(key, text, { ifNoneMatch: '*' });
        return;
      } catch (error) {
        if (!(error instanceof PreconditionFailed)) throw error;
        // Someone else holds this key: take the next counter, never overwrite.
      }
    }
    throw new CdkdError(
      'STATE_CONFLICT',
      `cdkd could not append the events of stack ${this.stack.stackName} (${this.stack.region}): another writer kept taking the keys it tried, last ${this.objects.location(key)}.`,
      { hint: 'Check that no other process writes under the same run id, then re-run the command.' },
    );
  }

  private nextKey(): string {
    const now = compactTimestamp(new Date());
    // Never step back in key order, even if the clock does.
    this.lastStamp = now > this.lastStamp ? now : this.lastStamp;
    const counter = String(this.counter).padStart(6, '0');
    this.counter += 1;
    return `${this.eventsPrefix}${this.lastStamp}-${keySafe(this.runId)}-${counter}.json`;
  }
}

/**
 * Every event recorded for a stack, oldest first: objects in key (write) order, events by
 * timestamp, ties kept in write order; with `lastObjects`, only the events of the newest that
 * many objects (a run writes one or a few). A stack with no events gives []. An object that
 * cannot be read is a CdkdError (STATE_DOCUMENT_INVALID) naming its key.
 */
export async function readEvents(
  objects: S3Objects,
  prefix: string,
  stack: StackRef,
  lastObjects = Infinity,
): Promise<StackEvent[]> {
  const eventsPrefix = stackStateKeys(prefix, stack.stackName, stack.region).eventsPrefix;
  const listed = (await objects.listKeys(eventsPrefix))
    .filter((key) => key.endsWith('.json') && !key.slice(eventsPrefix.length).includes('/'))
    .sort();
  const keys = listed.length > lastObjects ? listed.slice(listed.length - lastObjects) : listed;
  const documents = await mapLimited(keys, READ_CONCURRENCY, async (key) => {
    const stored = await objects.get(key);
    // Listed, then gone (deleted by hand in between): nothing to show.
    return stored ? parseDocument(EVENTS_DOCUMENT, objects.location(key), stored.text) : undefined;
  });
  const events = documents.flatMap((document) => document?.events ?? []);
  const order = events.map((event, index) => ({ event, index, time: sortTime(event.timestamp) }));
  order.sort((a, b) => a.time - b.time || a.index - b.index);
  return order.map(({ event }) => event);
}

/** `2026-01-02T03:04:05.678Z` → `20260102T030405.678Z`: fixed width, sorts as text. */
function compactTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

function keySafe(runId: string): string {
  return runId.replace(/[^A-Za-z0-9._-]/g, '_') || 'run';
}

/** A timestamp that does not parse sorts last rather than breaking the order of the rest. */
function sortTime(timestamp: string): number {
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? Number.MAX_SAFE_INTEGER : time;
}

async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

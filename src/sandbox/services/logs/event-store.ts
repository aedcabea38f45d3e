import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'logs/events';

export interface LogEvent {
  timestamp: number;
  message: string;
  ingestionTime: number;
}

interface StreamEvents {
  region: string;
  group: string;
  stream: string;
  events: LogEvent[];
}

const key = (region: string, group: string, stream: string): string =>
  `${region}/${encodeURIComponent(group)}/${encodeURIComponent(stream)}`;

/** The events of each log stream, one document per stream, written through to storage. */
export class LogEventStore {
  private readonly streams = new Map<string, StreamEvents>();
  /** Appends to one stream are written in order, each write carrying everything before it. */
  private writes: Promise<void> = Promise.resolve();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<LogEventStore> {
    const store = new LogEventStore(storage);
    for (const { id, doc } of await storage.listDocuments<StreamEvents>(NAMESPACE))
      store.streams.set(id, doc);
    return store;
  }

  events(region: string, group: string, stream: string): LogEvent[] {
    return this.streams.get(key(region, group, stream))?.events ?? [];
  }

  append(region: string, group: string, stream: string, events: LogEvent[]): Promise<void> {
    const id = key(region, group, stream);
    const doc = this.streams.get(id) ?? { region, group, stream, events: [] };
    doc.events.push(...events);
    this.streams.set(id, doc);
    this.writes = this.writes.then(() => this.storage.putDocument(NAMESPACE, id, doc));
    return this.writes;
  }

  /** Drops every stream's events of a deleted log group. */
  async deleteGroup(region: string, group: string): Promise<void> {
    const prefix = `${region}/${encodeURIComponent(group)}/`;
    for (const id of [...this.streams.keys()].filter((candidate) => candidate.startsWith(prefix))) {
      this.streams.delete(id);
      await this.storage.deleteDocument(NAMESPACE, id);
    }
  }
}

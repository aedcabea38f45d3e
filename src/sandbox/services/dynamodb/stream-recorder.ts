import type { SandboxClock } from '../../clock/clock.js';
import type { ForwardResponse } from './dynalite-server.js';
import type { ExtrasStore } from './extras.js';
import type { StreamStore } from './stream-store.js';

type Json = Record<string, unknown>;
type Item = Record<string, unknown>;

/** Reads an item (consistently) and a table's key attribute names through dynalite. */
export interface TableReads {
  item(region: string, table: string, key: Item): Promise<Item | undefined>;
  keyNames(region: string, table: string): Promise<string[]>;
}

interface Write {
  table: string;
  /** The item written (PutItem) or the key (UpdateItem, DeleteItem). */
  item: Item;
}

/** The writes an operation makes, table by table. */
export function writesOf(operation: string, input: Json): Write[] {
  switch (operation) {
    case 'PutItem':
      return [{ table: String(input.TableName), item: input.Item as Item }];
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ table: String(input.TableName), item: input.Key as Item }];
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems as Record<string, Json[]> | undefined) ?? {}).flatMap(
        ([table, requests]) =>
          requests.map((request) => ({
            table,
            item: ((request.PutRequest as Json | undefined)?.Item ??
              (request.DeleteRequest as Json | undefined)?.Key) as Item,
          })),
      );
    case 'TransactWriteItems':
      return ((input.TransactItems as Json[] | undefined) ?? []).flatMap((entry) => {
        const put = entry.Put as Json | undefined;
        const change = (entry.Update ?? entry.Delete) as Json | undefined;
        if (put) return [{ table: String(put.TableName), item: put.Item as Item }];
        if (change) return [{ table: String(change.TableName), item: change.Key as Item }];
        return [];
      });
    default:
      return [];
  }
}

/**
 * DynamoDB Streams for tables dynalite serves (it has none): a write to a table with an
 * enabled stream is wrapped in a read of each item it touches before and after, and the
 * difference becomes the stream's INSERT, MODIFY or REMOVE record. Writes to streamed tables
 * run one at a time per region, so the images are the write's own.
 */
export class StreamRecorder {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly streams: StreamStore,
    private readonly extras: ExtrasStore,
    private readonly reads: TableReads,
    private readonly clock: SandboxClock,
  ) {}

  async around(
    region: string,
    operation: string,
    input: Json,
    write: () => Promise<ForwardResponse>,
  ): Promise<ForwardResponse> {
    const writes = writesOf(operation, input).filter(
      (w) => this.extras.get(region, w.table).stream && w.item,
    );
    if (writes.length === 0) return write();
    const previous = this.queues.get(region) ?? Promise.resolve();
    const run = previous.then(async () => {
      const keyed = await Promise.all(
        writes.map(async (w) => {
          const names = await this.reads.keyNames(region, w.table);
          const key = Object.fromEntries(
            names.filter((name) => name in w.item).map((name) => [name, w.item[name]]),
          );
          return { table: w.table, key, before: await this.reads.item(region, w.table, key) };
        }),
      );
      const response = await write();
      if (response.status !== 200) return response;
      for (const { table, key, before } of keyed) {
        const after = await this.reads.item(region, table, key);
        await this.record(region, table, key, before, after);
      }
      return response;
    });
    this.queues.set(
      region,
      run.catch(() => undefined),
    );
    return run;
  }

  private async record(
    region: string,
    table: string,
    keys: Item,
    before: Item | undefined,
    after: Item | undefined,
  ) {
    const spec = this.extras.get(region, table).stream;
    if (!spec || (before === undefined && after === undefined)) return;
    if (
      before !== undefined &&
      after !== undefined &&
      JSON.stringify(sorted(before)) === JSON.stringify(sorted(after))
    ) {
      return;
    }
    const stream = this.streams.open(spec.LatestStreamArn, region, table, spec.StreamViewType);
    await this.streams.append(stream, {
      eventName: before === undefined ? 'INSERT' : after === undefined ? 'REMOVE' : 'MODIFY',
      keys,
      ...(before ? { oldImage: before } : {}),
      ...(after ? { newImage: after } : {}),
      at: this.clock.now(),
    });
  }
}

function sorted(item: Item): Item {
  return Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)));
}

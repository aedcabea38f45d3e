import type { SandboxContext } from '../../service-module.js';
import type { LogEventStore } from './event-store.js';
import type { LogGroupStore } from './store.js';

/**
 * Appends log events for other sandbox modules (Lambda writes what a function prints),
 * creating the group and stream when missing, as the Lambda service does, so they never
 * reach into the Logs store.
 */
export interface LogWriter {
  append(
    region: string,
    group: string,
    stream: string,
    events: Array<{ timestamp: number; message: string }>,
  ): Promise<void>;
}

const writers = new WeakMap<SandboxContext, LogWriter>();

/** The writer of the sandbox the context belongs to; undefined when Logs is not served. */
export function logWriter(context: SandboxContext): LogWriter | undefined {
  return writers.get(context);
}

export function exposeLogWriter(context: SandboxContext, groups: LogGroupStore, events: LogEventStore): void {
  writers.set(context, {
    async append(region, name, stream, given) {
      const now = Date.now();
      const group = groups.get(region, name) ?? {
        name,
        region,
        creationTime: now,
        logGroupClass: 'STANDARD',
        tags: {},
        streams: [],
        metricFilters: [],
        subscriptionFilters: [],
      };
      if (!group.streams.some((candidate) => candidate.name === stream)) {
        await groups.save({ ...group, streams: [...group.streams, { name: stream, creationTime: now }] });
      }
      await events.append(
        region,
        name,
        stream,
        given.map((event) => ({ ...event, ingestionTime: now })),
      );
    },
  });
}

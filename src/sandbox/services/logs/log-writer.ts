import { logWriter } from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import type { LogEventStore } from './event-store.js';
import type { LogGroupStore } from './store.js';

/** Logs' side of the log-writer port, over its group and event stores. */
export function exposeLogWriter(context: SandboxContext, groups: LogGroupStore, events: LogEventStore): void {
  logWriter.expose(context, {
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

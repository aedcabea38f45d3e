import type { StackEvent, StateBackend, StackRef } from '../../state/index.js';
import { readEvents } from '../../state/event-log.js';
import type { Session } from '../session/session.js';
import type { StackDetail, StackOverview } from './ui-types.js';

/** Reads, never writes: every answer comes from cdkd's state bucket. */
export class UiData {
  constructor(
    private readonly backend: StateBackend,
    private readonly regions: readonly string[] | 'all',
  ) {}

  get bucket(): string {
    return this.backend.bucket;
  }

  async stacks(): Promise<StackOverview[]> {
    // Nested stacks (`Parent/Child`) included, sorted so each follows its parent.
    const all = (await this.backend.store.listEverywhere()).stacks.sort(
      (a, b) => a.stackName.localeCompare(b.stackName) || a.region.localeCompare(b.region),
    );
    const refs = this.regions === 'all' ? all : all.filter((ref) => this.regions.includes(ref.region));
    return Promise.all(refs.map((ref) => this.overview(ref)));
  }

  async stack(ref: StackRef): Promise<StackDetail | undefined> {
    const [read, events] = await Promise.all([
      this.backend.store.read(ref),
      readEvents(this.backend.objects, this.backend.store.prefix, ref),
    ]);
    if (!read) return undefined;
    const changes = lastChanges(events);
    const document = read.document;
    const importers =
      document.outputs && Object.values(document.outputs).some((output) => output.exportName)
        ? await this.importersIn(ref.region)
        : new Map<string, string[]>();
    return {
      ...ref,
      updatedAt: document.updatedAt,
      resources: Object.entries(document.resources).map(([logicalId, record]) => ({
        logicalId,
        type: record.type,
        physicalId: record.physicalId,
        route: record.provisionedBy,
        ...(record.deletionPolicy ? { deletionPolicy: record.deletionPolicy } : {}),
        dependencies: record.dependencies.filter((id) => id in document.resources),
        ...(changes.has(logicalId) ? { lastChange: changes.get(logicalId)! } : {}),
      })),
      outputs: Object.fromEntries(
        Object.entries(document.outputs).map(([name, output]) => [
          name,
          {
            value: output.value,
            ...(output.exportName
              ? { exportName: output.exportName, importedBy: importers.get(output.exportName) ?? [] }
              : {}),
          },
        ]),
      ),
      imports: document.imports,
    };
  }

  /** The stack's events, oldest first, and the dependencies its state records (for the timeline). */
  async events(ref: StackRef): Promise<{ events: StackEvent[]; dependencies: Record<string, string[]> }> {
    const [events, read] = await Promise.all([
      readEvents(this.backend.objects, this.backend.store.prefix, ref),
      this.backend.store.read(ref),
    ]);
    const dependencies = Object.fromEntries(
      Object.entries(read?.document.resources ?? {}).map(([id, record]) => [id, record.dependencies]),
    );
    return { events, dependencies };
  }

  /** Export name → the stacks in `region` whose template imports it. */
  private async importersIn(region: string): Promise<Map<string, string[]>> {
    const refs = (await this.backend.store.listEverywhere()).stacks.filter((ref) => ref.region === region);
    const importers = new Map<string, string[]>();
    for (const ref of refs) {
      const read = await this.backend.store.read(ref);
      for (const name of read?.document.imports ?? [])
        importers.set(name, [...(importers.get(name) ?? []), ref.stackName]);
    }
    return importers;
  }

  private async overview(ref: StackRef): Promise<StackOverview> {
    const [read, lock, journal, events, drift] = await Promise.all([
      this.backend.store.read(ref),
      this.backend.locks.find(ref),
      this.backend.journals.read(ref),
      readEvents(this.backend.objects, this.backend.store.prefix, ref),
      this.backend.store.readDrift(ref),
    ]);
    const last = [...events].reverse().find((event) => event.logicalId === undefined);
    const slash = ref.stackName.lastIndexOf('/');
    return {
      ...ref,
      ...(slash > 0 ? { parent: ref.stackName.slice(0, slash) } : {}),
      resourceCount: read ? Object.keys(read.document.resources).length : 0,
      updatedAt: read?.document.updatedAt ?? '',
      ...(last ? { lastRunStatus: last.status, lastRunAt: last.timestamp } : {}),
      ...(lock.kind === 'readable'
        ? {
            lock: {
              owner: lock.document.owner,
              ...(lock.document.operation ? { operation: lock.document.operation } : {}),
              ...(lock.document.timestamp ? { timestamp: lock.document.timestamp } : {}),
            },
          }
        : lock.kind === 'unreadable'
          ? { lock: { unreadable: true as const } }
          : {}),
      pendingJournal: (journal?.document.segments ?? []).filter((segment) => segment.status !== 'succeeded')
        .length,
      ...(drift
        ? {
            drift: {
              checkedAt: drift.checkedAt,
              mode: drift.mode,
              drifted: drift.drifted,
              missing: drift.missing,
            },
          }
        : {}),
    };
  }
}

/** Each resource's latest successful create or update in the events (oldest first). */
function lastChanges(events: readonly StackEvent[]): Map<string, { at: string; status: string }> {
  const changes = new Map<string, { at: string; status: string }>();
  for (const event of events) {
    if (event.logicalId !== undefined && /^(CREATE|UPDATE)_COMPLETE$/.test(event.status))
      changes.set(event.logicalId, { at: event.timestamp, status: event.status });
  }
  return changes;
}

/** The state the session's credentials reach, for one region or (`allRegions`) every one. */
export async function openUiData(session: Session, options: { allRegions?: boolean } = {}): Promise<UiData> {
  const backend = await session.stateBackend();
  return new UiData(backend, options.allRegions ? 'all' : [await session.region()]);
}

import type { MadeResourceFacts, MadePath } from '../../rollback-decisions/index.js';
import { sameId } from '../../resource-types/index.js';
import { compareLive, comparesLiveIdentity, type LiveRead } from '../../rollback-decisions/index.js';
import type { ReplayServices } from '../../rollback/index.js';
import type {
  StackEvent,
  JournalOperation,
  JournalSegment,
  StateDocument,
  StackRef,
} from '../../state/index.js';
import { readEvents } from '../../state/event-log.js';
import type { EngineContext } from '../engine-context.js';
import { messageOf } from '../../errors.js';

/** The facts about a made resource that only reading the cloud or other documents can give. */
export type GatheredMadeFacts = Pick<
  MadeResourceFacts,
  'orphanRecordHoldsIt' | 'otherStackHoldsIt' | 'liveComparison' | 'unreadableUnderPrefix'
>;

export interface GatherInput {
  ref: StackRef;
  segments: readonly JournalSegment[];
  state: StateDocument;
  path: MadePath;
  services: ReplayServices;
}

/**
 * Spec 000, "Failed CREATEs that made their resource": what `decideMadeResource` reads
 * beyond the journal and the stack's own state. The rollback-orphan records are the
 * survivors the stack's rollbacks recorded in its events; a successful deploy also reads
 * every other stack under the prefix and, where a fix-forward put another resource under
 * the logical id, both resources live. Does no I/O when no entry made a resource.
 */
export async function gatherMadeFacts(
  engine: EngineContext,
  input: GatherInput,
): Promise<Map<JournalOperation, GatheredMadeFacts>> {
  const entries = input.segments.flatMap((segment) => segment.operations.filter((op) => op.made));
  const gathered = new Map<JournalOperation, GatheredMadeFacts>();
  if (entries.length === 0) return gathered;
  const survivors = survivorsOf(
    await readEvents(engine.backend.objects, engine.backend.store.prefix, input.ref),
  );
  const others = input.path === 'deploy-success' ? await otherStacks(engine, input.ref) : undefined;
  for (const op of entries) {
    const id = op.made!.physicalId;
    if (typeof id !== 'string') continue;
    const holds = (held: { type?: string; physicalId: string }) =>
      (held.type === undefined || held.type === op.type) && sameId(op.type, held.physicalId, id);
    const facts: GatheredMadeFacts = {
      // Spec 000: a rollback-orphan record holding its logical or physical id, from any run.
      orphanRecordHoldsIt: survivors.some(
        (survivor) => holds(survivor) || survivor.logicalId === op.logicalId,
      ),
    };
    if (others) {
      facts.otherStackHoldsIt = others.records.some(holds) || others.survivors.some(holds);
      if (others.unreadable) facts.unreadableUnderPrefix = others.unreadable;
    }
    const comparison = await liveComparison(op, input);
    if (comparison) facts.liveComparison = comparison;
    gathered.set(op, facts);
  }
  return gathered;
}

interface Survivor {
  logicalId?: string;
  physicalId: string;
}

function survivorsOf(events: readonly StackEvent[]): Survivor[] {
  return events.flatMap((event) =>
    event.survivorId
      ? [
          {
            physicalId: event.survivorId,
            ...(event.logicalId ? { logicalId: event.logicalId } : {}),
          },
        ]
      : [],
  );
}

/**
 * Every other stack's records and rollback-orphan records under the prefix, nested stacks
 * included; what could not be read, and a legacy document that names no region, is named.
 */
async function otherStacks(engine: EngineContext, self: StackRef) {
  const records: Array<{ type: string; physicalId: string }> = [];
  const survivors: Survivor[] = [];
  const unreadable: string[] = [];
  const everywhere = await engine.backend.store.listEverywhere();
  for (const name of everywhere.legacy) {
    unreadable.push(`${name}: a legacy state document that names no region`);
  }
  const refs = everywhere.stacks.filter(
    (ref) => ref.stackName !== self.stackName || ref.region !== self.region,
  );
  for (const ref of refs) {
    try {
      const state = await engine.backend.store.read(ref);
      for (const record of Object.values(state?.document.resources ?? {})) records.push(record);
      survivors.push(
        ...survivorsOf(await readEvents(engine.backend.objects, engine.backend.store.prefix, ref)),
      );
    } catch (error) {
      unreadable.push(`${ref.stackName} (${ref.region}): ${messageOf(error)}`);
    }
  }
  return { records, survivors, ...(unreadable.length > 0 ? { unreadable: unreadable.join('; ') } : {}) };
}

/** A fix-forward's record under the logical id read against the earlier resource, where the spec compares them. */
async function liveComparison(op: JournalOperation, input: GatherInput) {
  const made = op.made!;
  const compares = input.path === 'deploy-success' || op.keptByDeploy === true;
  const record = input.state.resources[op.logicalId];
  if (!compares || !record || record.type !== op.type || !comparesLiveIdentity(op.type, made.provisionedBy)) {
    return undefined;
  }
  if (sameId(op.type, record.physicalId, made.physicalId as string)) return undefined;
  const { services } = input;
  const read = async (
    physicalId: string,
    properties: Record<string, unknown>,
    provisionedBy: typeof made.provisionedBy,
  ): Promise<LiveRead> => {
    try {
      const provider = await services.router.providerFor(op.type, provisionedBy);
      const live = await provider.read(
        {
          logicalId: op.logicalId,
          type: op.type,
          physicalId,
          properties: await services.sendable(properties),
        },
        services.context,
      );
      return live ?? 'gone';
    } catch {
      return 'unreadable';
    }
  };
  const recordRead = await read(record.physicalId, record.properties, record.provisionedBy);
  const earlierRead = await read(made.physicalId as string, made.properties, made.provisionedBy);
  return compareLive(op.type, earlierRead, recordRead);
}

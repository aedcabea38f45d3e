import type { CloudAssembly } from '../../assembly/index.js';
import { orphanResources, type OrphanResult } from '../../engine/scrub/index.js';
import { RETRY_SCHEDULE } from '../../state/lock-schedule.js';
import { buildDependencyGraph, validateTemplate } from '../../template/index.js';
import type { Session } from '../session/session.js';
import { stateStackIdentity } from './state-stack.js';
import { singleStackTarget } from '../stacks/stack-requests.js';

export interface OrphanInput {
  session: Session;
  logicalIds: string[];
  force: boolean;
  /** The first SIGINT/SIGTERM: nothing is written after it. */
  signal?: AbortSignal;
}

export interface OrphanedStack extends OrphanResult {
  stackName: string;
  /** Orphaned ids the app's template still declares: the next deploy would create them again. */
  stillDeclared: string[];
}

/**
 * `cdkd orphan <stack> <logicalId…>`: the stack found in the app; besides state, the
 * template's references count as readers. Fails fast on the lock (spec 003).
 */
export async function orphanFromApp(
  input: OrphanInput & { assembly: CloudAssembly; stack: string },
): Promise<OrphanedStack> {
  const {
    stack,
    target: { region },
    session,
  } = await singleStackTarget(input.session, input.assembly, input.stack);
  const template = validateTemplate(stack.template, `${stack.stackName} template`);
  // Conditions are not evaluated here: a reference under any condition counts, erring on refusing.
  const graph = buildDependencyGraph(template, new Map());
  const readers = new Map(input.logicalIds.map((id) => [id, graph.has(id) ? graph.dependents(id) : []]));
  const result = await orphanResources(await session.stateBackend(), {
    ref: { stackName: stack.stackName, region },
    logicalIds: input.logicalIds,
    force: input.force,
    templateReaders: readers,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return {
    stackName: stack.stackName,
    ...result,
    stillDeclared: input.logicalIds.filter((id) => template.resources.has(id)),
  };
}

/** `cdkd state orphan <stack> <logicalId…>`: state alone, no synthesis; the lock is retried as a deploy's is. */
export async function orphanFromState(
  input: OrphanInput & { stackName: string; region?: string },
): Promise<OrphanedStack> {
  const stack = await stateStackIdentity(input.session, input.stackName, input.region);
  const result = await orphanResources(await input.session.stateBackend(), {
    ref: { stackName: stack.stateName, region: stack.region },
    logicalIds: input.logicalIds,
    force: input.force,
    schedule: RETRY_SCHEDULE,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { stackName: input.stackName, ...result, stillDeclared: [] };
}

import type { MadeContext, ReplayServices } from '../../rollback/index.js';
import { describeStep, planRollback, type NestedScope, type RollbackOptions } from '../../rollback/index.js';
import type { JournalSegment, StateDocument } from '../../state/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import { gatherMadeFacts } from './made-facts.js';
import { nestedIdentity } from '../nested/index.js';
import { StackState } from '../../stack-state/index.js';

export interface PlanLinesInput {
  stack: StackIdentity;
  /** The segments to roll back, in the order they run. */
  segments: readonly JournalSegment[];
  /** The whole journal, oldest segment first. */
  journalSegments: readonly JournalSegment[];
  state: StateDocument;
  options: RollbackOptions;
  services: ReplayServices;
  gathered: MadeContext['gathered'];
  /** Builds the replay services of a nested stack, for reading its resources live. */
  servicesFor(stack: StackIdentity, state: StackState): ReplayServices;
}

/**
 * The lines `cdkd rollback` prints before asking: one per step, and under a nested
 * stack's line the steps its own segment of the run will replay, indented, so the
 * confirmation covers everything the rollback touches.
 */
export async function planLines(engine: EngineContext, input: PlanLinesInput): Promise<string[]> {
  const lines: string[] = [];
  for (const segment of input.segments) {
    const planned = planRollback({
      segment,
      segments: input.journalSegments,
      state: input.state,
      options: input.options,
      path: 'rollback',
      knownType: (type) => input.services.router.canHandle(type),
      ...(input.gathered ? { gathered: input.gathered } : {}),
    });
    for (const entry of planned) {
      lines.push(describeStep(entry));
      if (entry.step.kind !== 'nested') continue;
      const child = await nestedLines(engine, input, entry.step.logicalId, entry.step.runId);
      lines.push(...child.map((line) => `  ${line}`));
    }
  }
  return lines;
}

/**
 * Spec 001, "Nested stacks": a nested stack its parent's rollback replays (the run id is given)
 * leaves its failed operations for its own rollback; rolled back directly, it discards the
 * completed operations of the runs its parent moved on from.
 */
export function nestedScope(stack: StackIdentity, runId: string | undefined): NestedScope | undefined {
  if (runId !== undefined) return replayedScope(stack);
  return stack.isNested ? { kind: 'direct', parent: parentStateName(stack) } : undefined;
}

/** The nested stack named as the command line takes it: `Top~Child`. */
function replayedScope(stack: StackIdentity): NestedScope {
  return { kind: 'replayed', stack: stack.stateName.replaceAll('/', '~') };
}

export function parentStateName(stack: StackIdentity): string {
  return stack.stateName.slice(0, stack.stateName.lastIndexOf('/'));
}

async function nestedLines(
  engine: EngineContext,
  parent: PlanLinesInput,
  logicalId: string,
  runId: string,
): Promise<string[]> {
  const stack = nestedIdentity(parent.stack, logicalId);
  const ref = { stackName: stack.stateName, region: stack.region };
  const journal = await engine.backend.journals.read(ref);
  const segments = journal?.document.segments.filter((segment) => segment.runId === runId) ?? [];
  if (!journal || segments.length === 0) {
    return ['(the nested stack has no journal segment for this run; its replay will fail)'];
  }
  const state = await StackState.open(engine.backend.store, ref);
  const services = parent.servicesFor(stack, state);
  const gathered = await gatherMadeFacts(engine, {
    ref,
    segments,
    state: state.document,
    path: 'rollback',
    services,
  });
  return planLines(engine, {
    ...parent,
    stack,
    options: { ...parent.options, nested: replayedScope(stack) },
    segments,
    journalSegments: journal.document.segments,
    state: state.document,
    services,
    gathered,
  });
}

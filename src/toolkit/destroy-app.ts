import { selectStacks, type CloudAssembly } from '../assembly/index.js';
import { walkDag } from '../engine/dag-walk.js';
import type { StackDestroyResult } from '../engine/destroy-stack.js';
import type { EventSink } from '../engine/events.js';
import { interruptedError } from '../interrupted.js';
import { callerOf } from './caller.js';
import { openEngine } from './provider-wiring.js';
import type { Session } from './session.js';
import { stackTarget } from './stack-requests.js';

export interface DestroyAppInput {
  session: Session;
  assembly: CloudAssembly;
  patterns: string[];
  all: boolean;
  concurrency: number;
  stackConcurrency: number;
  events: EventSink;
  onWarning(message: string): void;
  /** Aborted on an interrupt: resources in flight finish, nothing new starts. */
  signal?: AbortSignal;
}

export interface DestroyedStack extends StackDestroyResult {
  stackName: string;
}

/** `cdkd destroy`: the selected stacks, each after every selected stack that depends on it. */
export async function destroyApp(input: DestroyAppInput): Promise<DestroyedStack[]> {
  const stacks = selectStacks(input.assembly, {
    patterns: input.patterns,
    all: input.all,
    defaultSelection: 'only-single',
    extend: 'none',
  });
  const caller = await callerOf(input.session, input.signal);
  const targets = new Map(stacks.map((stack) => [stack.displayName, stackTarget(stack, caller)]));
  const engine = await openEngine(input.session, {
    events: input.events,
    onWarning: input.onWarning,
    regions: [...targets.values()].map((target) => target.region),
  });
  const selected = new Set(stacks.map((stack) => stack.displayName));
  const dependents = (name: string) =>
    stacks.filter((stack) => stack.dependencies.includes(name) && selected.has(stack.displayName));
  const results: DestroyedStack[] = [];
  const outcome = await walkDag(
    stacks.map((stack) => ({
      id: stack.displayName,
      dependsOn: dependents(stack.displayName).map((s) => s.displayName),
    })),
    async (displayName) => {
      const stack = stacks.find((candidate) => candidate.displayName === displayName)!;
      const target = targets.get(displayName)!;
      const result = await engine.destroy(
        { stateName: stack.stackName, stackName: stack.stackName, ...target },
        { concurrency: input.concurrency, ...(input.signal ? { signal: input.signal } : {}) },
      );
      results.push({ stackName: stack.stackName, ...result });
    },
    {
      concurrency: input.stackConcurrency,
      priority: () => 0,
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  if (outcome.failed.length > 0) throw outcome.failed[0]!.error;
  if (input.signal?.aborted && outcome.notStarted.length > 0)
    throw interruptedError(input.signal, `before ${outcome.notStarted.join(', ')} started (not destroyed)`);
  return results;
}

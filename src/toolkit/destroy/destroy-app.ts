import { selectStacks, type CloudAssembly } from '../../assembly/index.js';
import { stacksFailed } from '../stacks/stacks-failed.js';
import { walkDag } from '../../dag/index.js';
import type { StackDestroyResult } from '../../engine/index.js';
import { refuseProtectedStacks, refuseUnknownOrphans } from '../../engine/destroy/index.js';
import { interruptedError } from '../../interrupted.js';
import { callerOf } from '../session/caller.js';
import { confirmDestroy } from './destroy-question.js';
import { refuseInvalidStackNames } from '../stacks/preflight.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import type { ToolkitIo } from '../io.js';
import { accountSessions, stackTarget } from '../stacks/stack-requests.js';

export interface DestroyAppInput extends ToolkitIo {
  session: Session;
  assembly: CloudAssembly;
  patterns: string[];
  all: boolean;
  concurrency: number;
  stackConcurrency: number;
  /** Aborted on an interrupt: resources in flight finish, nothing new starts. */
  signal?: AbortSignal;
  /** --remove-protection: turn each resource's deletion protection off before deleting it. */
  removeProtection?: boolean;
  /** --orphan: logical ids to leave in AWS and stop tracking instead of deleting. */
  orphan?: readonly string[];
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
  refuseInvalidStackNames(stacks);
  const caller = await callerOf(input.session, input.signal);
  const targets = new Map(stacks.map((stack) => [stack.displayName, stackTarget(stack, caller)]));
  // A stack in another account is destroyed through its deploy role, assumed before anything is asked.
  const sessions = await accountSessions(input.session, targets.values());
  const orphan = new Set(input.orphan ?? []);
  for (const [accountId, session] of sessions) {
    const inAccount = stacks.filter((stack) => targets.get(stack.displayName)!.accountId === accountId);
    const backend = await session.stateBackend();
    const refs = inAccount.map((stack) => ({
      stackName: stack.stackName,
      region: targets.get(stack.displayName)!.region,
    }));
    const declared = new Set(
      inAccount.filter((stack) => stack.terminationProtection).map((stack) => stack.stackName),
    );
    await refuseProtectedStacks(backend, refs, declared);
    await refuseUnknownOrphans(backend, refs, orphan);
  }
  await confirmDestroy(input, {
    stacks: stacks.map((stack) => stack.displayName),
    fromState: false,
    orphan: [...orphan],
  });
  const engine = await openEngine(input.session, {
    io: input.io,
    command: input.command,
    regions: [...targets.values()].map((target) => target.region),
    routes: [...targets.values()],
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
      const { accountId, region } = targets.get(displayName)!;
      const result = await engine.destroy(
        { stateName: stack.stackName, stackName: stack.stackName, accountId, region },
        {
          concurrency: input.concurrency,
          ...(input.signal ? { signal: input.signal } : {}),
          ...(input.removeProtection ? { removeProtection: true } : {}),
          ...(orphan.size > 0 ? { orphan } : {}),
        },
      );
      results.push({ stackName: stack.stackName, ...result });
    },
    {
      concurrency: input.stackConcurrency,
      priority: () => 0,
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  if (outcome.failed.length > 0) throw stacksFailed(outcome, 'destroyed');
  if (input.signal?.aborted && outcome.notStarted.length > 0)
    throw interruptedError(input.signal, `before ${outcome.notStarted.join(', ')} started (not destroyed)`);
  return results;
}

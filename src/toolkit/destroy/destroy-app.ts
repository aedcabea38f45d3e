import { selectStacks, type CloudAssembly, type StackArtifact } from '../../assembly/index.js';
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
import type { StateBackend } from '../../state/index.js';
import { accountMismatch, stackEnvironment, type StackTarget } from '../stacks/stack-requests.js';

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
  /** The account of a stack pinned to another than the caller's, of which nothing was recorded. */
  otherAccount?: string;
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
  const targets = new Map(stacks.map((stack) => [stack.displayName, stackEnvironment(stack, caller)]));
  const backend = await input.session.stateBackend();
  const elsewhere = await unrecordedElsewhere(backend, stacks, targets, caller);
  const orphan = new Set(input.orphan ?? []);
  const here = stacks.filter((stack) => !elsewhere.has(stack.displayName));
  const refs = here.map((stack) => ({
    stackName: stack.stackName,
    region: targets.get(stack.displayName)!.region,
  }));
  const declared = new Set(
    here.filter((stack) => stack.terminationProtection).map((stack) => stack.stackName),
  );
  await refuseProtectedStacks(backend, refs, declared);
  await refuseUnknownOrphans(backend, refs, orphan);
  await confirmDestroy(input, {
    stacks: stacks.map((stack) => stack.displayName),
    fromState: false,
    orphan: [...orphan],
  });
  const engine = await openEngine(input.session, {
    io: input.io,
    command: input.command,
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
      if (elsewhere.has(displayName)) {
        const nothing = { found: false, deleted: [], retained: [], orphaned: [] };
        results.push({ stackName: stack.stackName, ...nothing, otherAccount: target.accountId });
        return;
      }
      const result = await engine.destroy(
        { stateName: stack.stackName, stackName: stack.stackName, ...target },
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

/**
 * The stacks pinned to an account other than the caller's that this state records nothing
 * of (a never-deployed stack has nothing to destroy, whatever its account). One it does
 * record is refused as ACCOUNT_MISMATCH before anything is destroyed.
 */
async function unrecordedElsewhere(
  backend: StateBackend,
  stacks: readonly StackArtifact[],
  targets: ReadonlyMap<string, StackTarget>,
  caller: StackTarget,
): Promise<Set<string>> {
  const unrecorded = new Set<string>();
  for (const stack of stacks) {
    const target = targets.get(stack.displayName)!;
    if (target.accountId === caller.accountId) continue;
    const ref = { stackName: stack.stackName, region: target.region };
    const [state, journal, children] = await Promise.all([
      backend.store.read(ref),
      backend.journals.read(ref),
      backend.store.listChildren(ref),
    ]);
    if (state || journal || children.length > 0) throw accountMismatch(stack, target, caller);
    unrecorded.add(stack.displayName);
  }
  return unrecorded;
}

import type {
  DropFailedResult,
  Engine,
  StackIdentity,
  NamePrefixFallback,
  StackRollbackResult,
} from '../../engine/index.js';
import { CdkdError } from '../../errors.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { callerOf } from '../session/caller.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import type { ToolkitIo } from '../io.js';

export interface RollbackAppInput extends ToolkitIo {
  session: Session;
  /** `Stack`, or a nested stack as `Stack~Child` (or `Stack/Child`); absent: the one stack with a journal. */
  stackName?: string;
  region?: string;
  revertFailed: boolean;
  orphan: string[];
  force: boolean;
  /** The first SIGINT/SIGTERM: the steps in flight finish and the journal keeps the rest. */
  signal?: AbortSignal;
  /** The prefix setting for a journal that does not record one (spec 001): env, then cdk.json, then none. */
  namePrefixFallback?: () => NamePrefixFallback;
}

/** `cdkd rollback`: replays a stack's rollback journal; reads state only, no synthesis. */
export async function rollbackApp(input: RollbackAppInput): Promise<StackRollbackResult> {
  const target = await rollbackTarget(input);
  if (!target) return { stackName: '', found: false, lines: [], confirmed: false, exitCode: 0 };
  throwIfInterrupted(input.signal, 'before the rollback started; nothing was changed');
  return target.engine.rollback({
    stack: target.stack,
    revertFailed: input.revertFailed,
    orphan: new Set(input.orphan),
    force: input.force,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.namePrefixFallback ? { namePrefixFallback: input.namePrefixFallback } : {}),
  });
}

/**
 * `cdkd rollback --all`: every stack in the region with a rollback journal, one after another
 * (a nested stack's only when its top-level stack has none, as without a name); each stack's
 * result as it finishes, so one that fails does not hide the others' outcomes.
 */
export async function rollbackAll(
  input: Omit<RollbackAppInput, 'stackName'> & { onStack(result: StackRollbackResult): void },
): Promise<void> {
  const caller = await callerOf(input.session, input.signal);
  const region = input.region ?? caller.region;
  for (const stackName of await stacksWithJournal(input.session, region)) {
    throwIfInterrupted(input.signal, `before ${stackName} was rolled back; it was not changed`);
    input.onStack(await rollbackApp({ ...input, stackName, region }));
  }
}

/** `cdkd rollback --drop-failed`: discards the failed-only segments a clean automatic rollback left. */
export async function dropFailedApp(
  input: Pick<RollbackAppInput, 'session' | 'stackName' | 'region' | 'io' | 'command' | 'signal'>,
): Promise<DropFailedResult> {
  const target = await rollbackTarget(input);
  if (!target) return { stackName: '', found: false, lines: [], confirmed: false };
  return target.engine.dropFailed({
    stack: target.stack,
    ...(input.signal ? { signal: input.signal } : {}),
  });
}

/** The stack a rollback acts on (named, or the only one with a journal) and an engine for it. */
async function rollbackTarget(
  input: Pick<RollbackAppInput, 'session' | 'stackName' | 'region' | 'io' | 'command' | 'signal'>,
): Promise<{ engine: Engine; stack: StackIdentity } | undefined> {
  const caller = await callerOf(input.session, input.signal);
  const region = input.region ?? caller.region;
  const named = input.stackName ?? (await onlyStackWithJournal(input.session, region));
  if (named === undefined) return undefined;
  const stateName = named.replaceAll('~', '/');
  const engine = await openEngine(input.session, {
    io: input.io,
    command: input.command,
    regions: [region],
  });
  return {
    engine,
    stack: {
      stateName,
      stackName: stateName.replaceAll('/', '-'),
      region,
      accountId: caller.accountId,
      ...(stateName.includes('/') ? { isNested: true } : {}),
    },
  };
}

/**
 * Without a stack name: the only stack in the region that has a journal. A nested stack's
 * journal is not offered on its own while its top-level stack has one (spec 001).
 */
async function onlyStackWithJournal(session: Session, region: string): Promise<string | undefined> {
  const withJournal = await stacksWithJournal(session, region);
  if (withJournal.length <= 1) return withJournal[0];
  throw new CdkdError(
    'ROLLBACK_STACK_REQUIRED',
    `Several stacks in ${region} have a rollback journal: ${withJournal.join(', ')}.`,
    {
      hint: 'Name the stack to roll back (cdkd rollback <stack>), or roll every one back: cdkd rollback --all',
    },
  );
}

/** The stacks in the region with a journal to roll back, a nested one only without its parent's. */
async function stacksWithJournal(session: Session, region: string): Promise<string[]> {
  const backend = await session.stateBackend();
  const refs = (await backend.journals.list()).filter((ref) => ref.region === region);
  const found: string[] = [];
  for (const ref of refs) {
    // An unreadable journal is offered too: rolling that stack back names what is wrong with it.
    const journal = await backend.journals.read(ref).catch(() => 'unreadable' as const);
    if (journal === 'unreadable' || (journal && journal.document.segments.length > 0))
      found.push(ref.stackName);
  }
  return found.filter((name) => !name.includes('/') || !found.includes(name.split('/')[0]!)).sort();
}

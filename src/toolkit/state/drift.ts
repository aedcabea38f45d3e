import type { StackIdentity, DriftMode, DriftResult } from '../../engine/index.js';
import { CdkdError } from '../../errors.js';
import { stackNotInState } from '../../state/state-bucket-errors.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { warn, withoutProgress, type ToolkitIo } from '../io.js';
import { stateStackIdentity } from './state-stack.js';

/** Which stacks `cdkd drift` reads: those named, every one in state (`all`, maybe none), or the only one. */
export interface DriftSelection {
  stackNames: readonly string[];
  all: boolean;
  region?: string;
}

/** `cdkd drift [stacks...]`: from state alone, no synthesis; one stack after another. */
export async function driftFromState(
  input: ToolkitIo & {
    session: Session;
    selection: DriftSelection;
    mode: DriftMode;
    concurrency: number;
    /** The first SIGINT/SIGTERM (with --accept or --revert): the stack being read stops, no other starts. */
    signal?: AbortSignal;
    /** Each stack's result once read, before the next one starts. */
    onStack(result: DriftResult & { stackName: string }): void;
  },
): Promise<void> {
  const stacks = await driftTargets(input.session, input.selection);
  if (stacks.length === 0) return;
  const engine = await openEngine(input.session, {
    io: withoutProgress(input.io),
    command: input.command,
    regions: [...new Set(stacks.map((stack) => stack.region))],
  });
  for (const stack of stacks) {
    const result = await engine.drift(stack, {
      mode: input.mode,
      concurrency: input.concurrency,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    if (!result.found) throw stackNotInState(stack);
    await recordDrift(input, stack, result);
    input.onStack({ stackName: stack.stackName, ...result });
  }
}

/**
 * Keeps the check's summary beside the stack's state for `cdkd ui`. Only after a full read
 * (an interrupted one found less than there is); a failed write is a warning, not the
 * command's failure: the drift was read and is reported either way.
 */
async function recordDrift(
  input: ToolkitIo & { session: Session; mode: DriftMode; signal?: AbortSignal },
  stack: StackIdentity,
  result: DriftResult,
): Promise<void> {
  if (input.signal?.aborted) return;
  const ref = { stackName: stack.stateName, region: stack.region };
  try {
    const backend = await input.session.stateBackend();
    await backend.store.saveDrift(ref, {
      version: 1,
      checkedAt: new Date().toISOString(),
      mode: input.mode,
      drifted: result.drifted.map((resource) => resource.logicalId),
      missing: result.drifted.filter((resource) => resource.missing).map((resource) => resource.logicalId),
    });
  } catch (error) {
    warn(input, `could not record the drift summary of ${stack.stackName}: ${(error as Error).message}`);
  }
}

async function driftTargets(session: Session, selection: DriftSelection): Promise<StackIdentity[]> {
  if (selection.all && selection.stackNames.length > 0) {
    throw new CdkdError('DRIFT_SELECTION_CONFLICT', '--all reads every stack; stack names pick some.', {
      hint: 'Pass stack names or --all, not both.',
    });
  }
  if (selection.stackNames.length > 0) {
    return Promise.all(
      selection.stackNames.map((name) => stateStackIdentity(session, name, selection.region)),
    );
  }
  const backend = await session.stateBackend();
  const refs = (await backend.store.list()).filter(
    (ref) => selection.region === undefined || ref.region === selection.region,
  );
  const where = selection.region ? ` in ${selection.region}` : '';
  if (refs.length === 0 && !selection.all) {
    throw new CdkdError('STACK_NOT_IN_STATE', `cdkd's state holds no stack${where}.`, {
      hint: 'Run cdkd state list to see the stacks cdkd has deployed.',
    });
  }
  if (!selection.all && refs.length > 1) {
    throw new CdkdError(
      'DRIFT_STACK_REQUIRED',
      `cdkd's state holds ${refs.length} stacks${where}: ${refs.map((ref) => `${ref.stackName} (${ref.region})`).join(', ')}.`,
      { hint: 'Name the stacks to read, or pass --all.' },
    );
  }
  const accountId = await session.accountId();
  return refs.map((ref) => ({
    stateName: ref.stackName,
    stackName: ref.stackName,
    region: ref.region,
    accountId,
  }));
}

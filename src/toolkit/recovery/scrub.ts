import { ioQuestion, type CleanOutcome, type Leftover } from '../../messages/index.js';
import { throwIfInterrupted } from '../../interrupted.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import type { ToolkitIo } from '../io.js';

export interface ScrubInput extends ToolkitIo {
  session: Session;
  /** The first SIGINT/SIGTERM: the rollback under way finishes its steps in flight, no leftover after it is offered. */
  signal?: AbortSignal;
}

export interface ScrubbedLeftover {
  leftover: Leftover;
  /** `declined`: the offer was; otherwise what cleaning it came to (`left`: nothing scrub cleans). */
  outcome: CleanOutcome;
}

/** `cdkd scrub`: finds what crashed runs left in the state bucket and offers to clean each. */
export async function scrubBucket(input: ScrubInput): Promise<ScrubbedLeftover[]> {
  const engine = await openEngine(input.session, {
    io: input.io,
    command: input.command,
    regions: [await input.session.region()],
  });
  const accountId = await input.session.accountId();
  const results: ScrubbedLeftover[] = [];
  const leftovers = await engine.findLeftovers();
  // A journal under a live lock belongs to a run that may still be going: it waits for force-unlock.
  const locked = new Set(
    leftovers.flatMap((leftover) =>
      leftover.kind === 'held-lock' || leftover.kind === 'unreadable-lock' ? [refKey(leftover.ref)] : [],
    ),
  );
  for (const leftover of leftovers) {
    throwIfInterrupted(input.signal, 'before the next leftover; the ones not offered were left as they are');
    const cleanable =
      leftover.kind === 'stale-lock' || (leftover.kind === 'journal' && !locked.has(refKey(leftover.ref)));
    if (!cleanable) {
      results.push({ leftover, outcome: { kind: 'left' } });
      continue;
    }
    // Asked once per leftover cdkd can clean (CDKD_Q4100): yes cleans it, nobody to ask leaves it.
    const text = `${leftover.ref.stackName} (${leftover.ref.region}): clean this ${leftover.kind}?`;
    if (!(await input.io.ask(ioQuestion(input.command, 'CDKD_Q4100', text, leftover, false)))) {
      results.push({ leftover, outcome: { kind: 'declined' } });
      continue;
    }
    const outcome = await engine.cleanLeftover(leftover, {
      accountId,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    throwIfInterrupted(
      input.signal,
      `while settling ${leftover.ref.stackName}; the steps in flight finished and the journal keeps the rest`,
    );
    results.push({ leftover, outcome });
  }
  return results;
}

function refKey(ref: { stackName: string; region: string }): string {
  return `${ref.stackName}@${ref.region}`;
}

import type { JournalDocument, JournalOperation, StateDocument } from '../../state/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import { madeStep, type MadeContext } from '../../rollback/index.js';
import { replayStep, type ReplayServices } from '../../rollback/index.js';

export interface SettledJournal {
  /** Warnings naming resources a person must look at (exit 2 unless --allow-unaddressed). */
  warnings: string[];
  /** Entries kept because the command could not act on them. */
  kept: JournalOperation[];
}

export interface SettleInput {
  journal: JournalDocument;
  state: StateDocument;
  services: ReplayServices;
  path: 'deploy-success' | 'destroy';
  /** A successful deploy: its own run, whose segment holds no failed create. */
  run?: {
    runId: string;
    completed: ReadonlySet<string>;
    applied: NonNullable<MadeContext['appliedThisRun']>;
  };
  gathered?: MadeContext['gathered'];
  /** Said at info: what was deleted, or found already gone (spec 000, "named at info"). */
  note(logicalId: string, message: string): void;
}

/**
 * Spec 003, "The journal's lifetime", for a successful deploy or a destroy:
 * before the journal goes, each resource a failed create made that only the
 * journal records is deleted per its DeletionPolicy, unless state now holds it
 * (dropped silently) or something else may own it (warned about, left in AWS).
 * Entries the command could not act on are returned to keep.
 */
export async function settleMadeResources(input: SettleInput): Promise<SettledJournal> {
  const warnings: string[] = [];
  const kept: JournalOperation[] = [];
  const segments = input.journal.segments.filter((segment) => segment.runId !== input.run?.runId);
  for (const segment of segments) {
    for (const op of segment.operations) {
      if (!op.made) continue;
      const step = madeStep(op, {
        path: input.path,
        segments,
        segment,
        state: input.state,
        ...(input.run ? { completedThisRun: input.run.completed, appliedThisRun: input.run.applied } : {}),
        ...(input.gathered ? { gathered: input.gathered } : {}),
      });
      if (step.kind === 'skip') {
        if (step.warn) warnings.push(`${op.logicalId}: ${step.reason}`);
        if (step.note) input.note(op.logicalId, step.reason);
        if (step.keep) kept.push(op);
        continue;
      }
      const outcome = await replayStep(step, input.services);
      if (outcome.status === 'failed') {
        kept.push(op);
        warnings.push(`${op.logicalId}: could not delete what a failed create made: ${outcome.message}`);
      } else if (outcome.warn) {
        warnings.push(`${op.logicalId}: ${outcome.message}`);
      } else {
        input.note(op.logicalId, outcome.message);
      }
    }
  }
  return { warnings, kept };
}

/** Where the journal's end says at info what it did with an entry. */
export function journalNote(engine: EngineContext, stack: StackIdentity) {
  return (logicalId: string, message: string): void =>
    engine.events({
      kind: 'rollback',
      stack: stack.stackName,
      logicalId,
      status: 'succeeded',
      warn: false,
      message: `Journal: ${message}`,
    });
}

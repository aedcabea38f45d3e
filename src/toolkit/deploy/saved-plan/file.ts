import { readFile, writeFile } from 'node:fs/promises';
import { CdkdError, messageOf } from '../../../errors.js';
import type { PlannedOperation } from '../../../plan/index.js';
import { CDKD_VERSION } from '../../../version.js';
import type { StackBasis } from './basis.js';
import {
  SAVED_PLAN_FORMAT,
  SAVED_PLAN_FORMAT_VERSION,
  savedPlanSchema,
  type PlanFlags,
  type SavedPlan,
} from './schema.js';

export interface PlannedStackEntry {
  basis: StackBasis;
  stateEtag: string | null;
  operations: readonly PlannedOperation[];
}

/** The saved plan `cdkd diff --out` writes, in the documented shape (docs/saved-plan.md). */
export function savedPlanDocument(
  flags: PlanFlags,
  stacks: readonly PlannedStackEntry[],
  now: Date,
): SavedPlan {
  return {
    format: SAVED_PLAN_FORMAT,
    formatVersion: SAVED_PLAN_FORMAT_VERSION,
    cdkdVersion: CDKD_VERSION,
    createdAt: now.toISOString(),
    flags,
    stacks: stacks.map(({ basis, stateEtag, operations }) => ({
      ...basis,
      stateEtag,
      // As the file will hold them: plain JSON.
      operations: JSON.parse(JSON.stringify(operations)) as SavedPlan['stacks'][number]['operations'],
    })),
  };
}

export async function writeSavedPlan(file: string, plan: SavedPlan): Promise<void> {
  try {
    await writeFile(file, `${JSON.stringify(plan, null, 2)}\n`);
  } catch (error) {
    throw new CdkdError('SAVED_PLAN_INVALID', `Cannot write the plan file ${file}: ${messageOf(error)}`, {
      hint: 'Give --out a path in a directory that exists and can be written.',
      cause: error,
    });
  }
}

/** A plan file read and checked against the schema; anything else is refused naming the file. */
export async function readSavedPlan(file: string): Promise<SavedPlan> {
  const again = `Make it again with cdkd diff --out ${file}.`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw invalid(
      `Cannot read the plan file ${file}: ${messageOf(error)}`,
      'Give --plan the file cdkd diff --out wrote.',
      error,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalid(`The plan file ${file} is not JSON: ${messageOf(error)}`, again, error);
  }
  const head = raw as { format?: unknown; formatVersion?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== SAVED_PLAN_FORMAT)
    throw invalid(`The file ${file} is not a cdkd saved plan (no "format": "${SAVED_PLAN_FORMAT}").`, again);
  if (head.formatVersion !== SAVED_PLAN_FORMAT_VERSION)
    throw invalid(
      `The plan file ${file} has format version ${String(head.formatVersion)}; this cdkd reads version ${SAVED_PLAN_FORMAT_VERSION}.`,
      `Make it again with this cdkd: cdkd diff --out ${file}.`,
    );
  const parsed = savedPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(
      `The plan file ${file} is malformed: ${issue.path.join('.') || '(top level)'}: ${issue.message}.`,
      again,
    );
  }
  return parsed.data;
}

function invalid(message: string, hint: string, cause?: unknown): CdkdError {
  return new CdkdError('SAVED_PLAN_INVALID', message, { hint, ...(cause !== undefined && { cause }) });
}

import { isDeepStrictEqual } from 'node:util';
import { CdkdError } from '../../errors.js';
import type { GenerationDocument, KeptGeneration } from '../../state/index.js';

/** What the stack's state records as deployed now: the template and parameters of its last deploy. */
export interface CurrentDeploy {
  template?: Record<string, unknown>;
  parameters: Record<string, string | string[]>;
}

/**
 * The generation `cdkd undo` returns to, from those the bucket keeps (newest first): `to` by its
 * number, else the one before the stack's current generation. The newest kept generation is the
 * current one only when it holds what state holds now: a deploy killed between its state save
 * and its generation write (or whose write failed) left the newest one a deploy behind, and that
 * one is then what undo returns to. Refused when there is none to return to, or `to` names one
 * not kept or not readable.
 */
export function chooseGeneration(
  stackName: string,
  kept: readonly KeptGeneration[],
  to: number | undefined,
  current: CurrentDeploy,
): GenerationDocument {
  const readable = kept
    .flatMap((generation) => (generation.document ? [generation.document] : []))
    .sort((a, b) => b.number - a.number);
  if (to !== undefined) {
    const named = readable.find((generation) => generation.number === to);
    if (named) return named;
    const unreadable = kept.find((generation) => generation.document === undefined);
    throw new CdkdError(
      'UNDO_GENERATION_NOT_FOUND',
      `Stack ${stackName} has no generation ${to} kept${unreadable ? ' that cdkd can read' : ''}.`,
      { hint: `Run cdkd undo ${stackName} --list to see the generations kept${keptNumbers(readable)}.` },
    );
  }
  const newest = readable[0];
  const newestIsCurrent =
    newest !== undefined &&
    isDeepStrictEqual(newest.template, current.template) &&
    isDeepStrictEqual(newest.parameters, current.parameters);
  const previous = newestIsCurrent ? readable[1] : newest;
  if (previous) return previous;
  throw new CdkdError(
    'UNDO_NO_PREVIOUS_GENERATION',
    readable.length === 0
      ? `Stack ${stackName} has no recorded generation: no successful deploy recorded one (cdkd records them since undo came in).`
      : `Stack ${stackName} has only its current generation (${readable[0]!.number}) kept: there is nothing earlier to return to.`,
    {
      hint: 'Deploy the change you want to take back first; each successful deploy after it records a generation.',
    },
  );
}

function keptNumbers(readable: readonly GenerationDocument[]): string {
  return readable.length === 0
    ? ' (none)'
    : ` (${readable.map((generation) => generation.number).join(', ')})`;
}

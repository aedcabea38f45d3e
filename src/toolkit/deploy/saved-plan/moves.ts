import { canonicalJson } from '../../../plan/index.js';
import type { StackBasis } from './basis.js';
import type { PlanFlags, SavedPlan, SavedStack } from './schema.js';

/** What the run is about to deploy, to hold against a saved plan. */
export interface CurrentRun {
  cdkdVersion: string;
  flags: PlanFlags;
  stacks: readonly StackBasis[];
  /** State ETags read now, by display name (null: no state), where known before the locks. */
  stateEtags: ReadonlyMap<string, string | null>;
}

/**
 * Everything that moved between a saved plan and the run about to deploy it, one line per
 * move, naming the stack and what moved (empty: nothing did). Pure; the stacks are matched by
 * display name, and a stack in one but not the other is `stackSetMismatch`'s to report.
 */
export function savedPlanMoves(saved: SavedPlan, current: CurrentRun): string[] {
  const moves: string[] = [];
  if (saved.cdkdVersion !== current.cdkdVersion)
    moves.push(
      `cdkd version differs: the plan was made by ${saved.cdkdVersion}, this is ${current.cdkdVersion}`,
    );
  for (const flag of Object.keys(saved.flags) as Array<keyof PlanFlags>) {
    if (canonicalJson(saved.flags[flag]) !== canonicalJson(current.flags[flag]))
      moves.push(
        `flag differs: ${flag} was ${shown(saved.flags[flag])} in the plan, is ${shown(current.flags[flag])} now`,
      );
  }
  const now = new Map(current.stacks.map((stack) => [stack.displayName, stack]));
  for (const stack of saved.stacks) {
    const basis = now.get(stack.displayName);
    if (basis) moves.push(...stackMoves(stack, basis, current.stateEtags));
  }
  return moves;
}

function stackMoves(
  saved: SavedStack,
  basis: StackBasis,
  etags: ReadonlyMap<string, string | null>,
): string[] {
  const name = saved.displayName;
  const moves: string[] = [];
  if (saved.accountId !== basis.accountId || saved.region !== basis.region)
    moves.push(
      `${name}: target differs: planned for ${saved.accountId}/${saved.region}, now ${basis.accountId}/${basis.region}`,
    );
  const etag = etags.get(name);
  if (etag !== undefined && etag !== saved.stateEtag)
    moves.push(
      `${name}: ${saved.stateEtag === null ? 'the stack had no state when the plan was made; it has now' : etag === null ? 'its state is gone since the plan was made' : 'its state changed since the plan was made'}`,
    );
  if (saved.templateHash !== basis.templateHash)
    moves.push(`${name}: template differs (the app, its context, its assets or its nested stacks changed)`);
  for (const parameter of [
    ...new Set([...Object.keys(saved.parameters), ...Object.keys(basis.parameters)]),
  ].sort()) {
    const was = saved.parameters[parameter];
    const is = basis.parameters[parameter];
    if (canonicalJson(was) === canonicalJson(is)) continue;
    const secret = (was && 'sha256' in was) || (is && 'sha256' in is);
    const detail = secret
      ? '(NoEcho; values not shown)'
      : `(was ${was ? JSON.stringify(was.value) : 'not given'}, now ${is ? JSON.stringify((is as { value: string }).value) : 'not given'})`;
    moves.push(`${name}: parameter ${parameter} differs ${detail}`);
  }
  return moves;
}

function shown(value: unknown): string {
  if (value === null) return 'not given';
  return Array.isArray(value) ? (value.length === 0 ? 'none' : value.join(', ')) : String(value);
}

/** The stacks selected now that the file does not hold, and those it holds that are not selected. */
export function stackSetMismatch(
  saved: SavedPlan,
  selected: readonly string[],
): { missing: string[]; unselected: string[] } | undefined {
  const inFile = new Set(saved.stacks.map((stack) => stack.displayName));
  const chosen = new Set(selected);
  const missing = selected.filter((name) => !inFile.has(name)).sort();
  const unselected = [...inFile].filter((name) => !chosen.has(name)).sort();
  return missing.length + unselected.length === 0 ? undefined : { missing, unselected };
}

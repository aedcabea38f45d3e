import { CdkdError } from '../errors.js';
import type { CloudAssembly, StackArtifact } from './types.js';

export interface StackSelector {
  /** Stack names, display paths (`Stage/Stack`) or wildcards (`*`, `Stage/*`, `**`). */
  patterns?: string[];
  /** Every stack of the root assembly, as `cdk deploy --all` selects. */
  all?: boolean;
  /**
   * What naming no stack means: `only-single` selects the one top-level stack and
   * refuses when there are several (deploy); `all` selects every stack (synth, list).
   */
  defaultSelection: 'only-single' | 'all';
  /** `upstream` (default) adds the stacks the selected ones depend on. */
  extend?: 'upstream' | 'none';
}

/** The selected stacks in dependency order (a stack after the stacks it depends on). */
export function selectStacks(assembly: CloudAssembly, selector: StackSelector): StackArtifact[] {
  const stacks = assembly.stacks;
  if (stacks.length === 0) {
    throw new CdkdError('NO_STACKS', `The cloud assembly in ${assembly.directory} contains no stacks.`, {
      hint: 'Check that the app adds at least one Stack to its App.',
    });
  }
  const patterns = selector.patterns ?? [];
  let selected: StackArtifact[];
  if (patterns.length > 0) {
    selected = patterns.flatMap((pattern) => matchPattern(stacks, pattern));
  } else if (selector.all) {
    selected = stacks.filter((stack) => stack.topLevel);
    if (selected.length === 0) {
      throw new CdkdError('NO_STACKS', 'The root assembly holds no stack; every stack sits inside a Stage.', {
        hint: `Select them by path, for example '**' or 'Stage/*'. Stacks: ${names(stacks)}`,
      });
    }
  } else if (selector.defaultSelection === 'all') {
    selected = stacks;
  } else {
    selected = defaultSingle(stacks);
  }
  const wanted = selector.extend === 'none' ? selected : withDependencies(stacks, selected);
  return orderByDependencies(stacks.filter((stack) => wanted.includes(stack)));
}

/**
 * A wildcard matches the display path, as in the CDK CLI (so `*` stays in the
 * root assembly); a plain name matches the display path, stack name or artifact id.
 */
export function matchesStack(stack: StackArtifact, pattern: string): boolean {
  if (/[*?]/.test(pattern)) return globToRegExp(pattern).test(stack.displayName);
  return [stack.displayName, stack.stackName, stack.artifactId].includes(pattern);
}

/**
 * Orders stacks so each comes after its dependencies (manifest order among equals).
 * Dependencies outside the given set are ignored.
 */
export function orderByDependencies(stacks: StackArtifact[]): StackArtifact[] {
  const remaining = [...stacks];
  const done = new Set<string>();
  const ordered: StackArtifact[] = [];
  const inSet = new Set(stacks.map((stack) => stack.displayName));
  while (remaining.length > 0) {
    const index = remaining.findIndex((stack) =>
      stack.dependencies.every((dependency) => done.has(dependency) || !inSet.has(dependency)),
    );
    if (index < 0) {
      throw new CdkdError(
        'STACK_DEPENDENCY_CYCLE',
        `The stacks ${names(remaining)} depend on each other in a cycle.`,
        {
          hint: 'Remove one of the dependencies (a cross-stack reference or addDependency) and re-synthesize.',
        },
      );
    }
    const [next] = remaining.splice(index, 1) as [StackArtifact];
    done.add(next.displayName);
    ordered.push(next);
  }
  return ordered;
}

function matchPattern(stacks: StackArtifact[], pattern: string): StackArtifact[] {
  const matched = stacks.filter((stack) => matchesStack(stack, pattern));
  if (matched.length === 0) {
    throw new CdkdError('STACK_NOT_FOUND', `No stack matches '${pattern}'. Stacks: ${names(stacks)}`, {
      hint: 'Name a stack by its name or display path (wildcards like Stage/* work); `cdkd list` prints them.',
    });
  }
  return matched;
}

function defaultSingle(stacks: StackArtifact[]): StackArtifact[] {
  if (stacks.length === 1) return stacks;
  throw new CdkdError('STACK_SELECTION_REQUIRED', `This app has ${stacks.length} stacks: ${names(stacks)}`, {
    hint: 'Name the stacks to use (wildcards like Stage/* work), or pass --all.',
  });
}

function withDependencies(all: StackArtifact[], selected: StackArtifact[]): StackArtifact[] {
  const byName = new Map(all.map((stack) => [stack.displayName, stack]));
  const result = new Set<StackArtifact>();
  const visit = (stack: StackArtifact): void => {
    if (result.has(stack)) return;
    result.add(stack);
    for (const dependency of stack.dependencies) {
      const found = byName.get(dependency);
      if (found) visit(found);
    }
  };
  selected.forEach(visit);
  return [...result];
}

/** CDK CLI wildcard semantics: `*` and `?` stay within one path segment, `**` crosses them. */
function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function names(stacks: StackArtifact[]): string {
  return stacks.map((stack) => stack.displayName).join(', ');
}

import { CdkdError } from '../errors.js';
import type { Annotation, StackArtifact } from './types.js';

const LABELS = { error: 'Error', warning: 'Warning', info: 'Info' } as const;

/** Every annotation of the given stacks, in stack order. */
export function collectAnnotations(stacks: StackArtifact[]): Annotation[] {
  return stacks.flatMap((stack) => stack.annotations);
}

/** One line per annotation, as the CDK CLI prints them: `[Warning at /Stack/Path] message`. */
export function formatAnnotation(annotation: Annotation): string {
  return `[${LABELS[annotation.level]} at ${annotation.path}] ${annotation.message}`;
}

export function summarizeAnnotations(annotations: Annotation[]): string {
  const count = (level: Annotation['level']) => annotations.filter((a) => a.level === level).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(count('error'), 'error'), plural(count('warning'), 'warning'), `${count('info')} info`].join(
    ', ',
  );
}

/**
 * Refuses an assembly whose stacks carry an error annotation, or (with `strict`,
 * like `cdk synth --strict`) a warning. Printing them is the caller's job.
 */
export function enforceAnnotations(annotations: Annotation[], options: { strict: boolean }): void {
  const errors = annotations.filter((a) => a.level === 'error');
  if (errors.length > 0) {
    throw new CdkdError(
      'ASSEMBLY_HAS_ERRORS',
      `The app reported ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.map(indent).join('\n')}`,
      { hint: 'Fix the errors in the app and synthesize again.' },
    );
  }
  const warnings = annotations.filter((a) => a.level === 'warning');
  if (options.strict && warnings.length > 0) {
    throw new CdkdError(
      'ASSEMBLY_HAS_WARNINGS',
      `The app reported ${warnings.length} warning${warnings.length === 1 ? '' : 's'} (--strict):\n${warnings.map(indent).join('\n')}`,
      { hint: 'Fix or acknowledge the warnings, or run without --strict.' },
    );
  }
}

function indent(annotation: Annotation): string {
  return `  ${formatAnnotation(annotation)}`;
}

import type { WalkOutcome } from '../../dag/index.js';
import { CdkdError, isCdkdError, messageOf } from '../../errors.js';

/**
 * What a command over several stacks fails with. One failed stack: its own error, naming the
 * stacks that never started (nothing new starts after a failure). Several: one error listing
 * each stack's failure and what to do, so none is hidden behind the first.
 */
export function stacksFailed(outcome: WalkOutcome, verb: 'deployed' | 'destroyed'): unknown {
  const failures = outcome.failed.map((failure) => failure.error);
  const notStarted =
    outcome.notStarted.length > 0
      ? `Not ${verb}, as nothing starts after a failure: ${outcome.notStarted.join(', ')}.`
      : undefined;
  if (failures.length === 1) {
    const only = failures[0];
    if (!notStarted || !isCdkdError(only)) return only;
    return new CdkdError(only.code, `${only.message} ${notStarted}`, {
      ...(only.hint ? { hint: only.hint } : {}),
      cause: only.cause,
      exitCode: only.exitCode,
    });
  }
  const hints = [
    ...new Set(failures.flatMap((error) => (isCdkdError(error) && error.hint ? [error.hint] : []))),
  ];
  const codes = new Set(failures.map((error) => (isCdkdError(error) ? error.code : undefined)));
  const code = codes.size === 1 && [...codes][0] ? [...codes][0]! : 'STACKS_FAILED';
  const lines = failures.map((error) => `  - ${messageOf(error)}`);
  return new CdkdError(
    code,
    [`${failures.length} stacks failed:`, ...lines, ...(notStarted ? [notStarted] : [])].join('\n'),
    {
      ...(hints.length > 0 ? { hint: hints.join('\n  ') } : {}),
      cause: failures[0],
      // Any plain failure fails the command; a set of interrupts (130) stays one.
      exitCode: failures.every((error) => isCdkdError(error) && error.exitCode === 130) ? 130 : 1,
    },
  );
}

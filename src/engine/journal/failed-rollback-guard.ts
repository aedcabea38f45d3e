import { CdkdError } from '../../errors.js';
import type { JournalDocument } from '../../state/index.js';

/**
 * Spec 004: "A rollback that fails leaves the stack in UPDATE_ROLLBACK_FAILED, which is
 * delete-or-continue only." A stack whose journal holds a run whose last rollback failed
 * refuses a deploy (and its dry run) until `cdkd rollback` completes it or `cdkd destroy`
 * deletes the stack; `--fix-forward` is the way through, for the cases the spec settles by
 * fixing forward (a property no rollback can restore, an old type with no provider).
 */
export function refuseAfterFailedRollback(
  stateName: string,
  journal: JournalDocument | undefined,
  fixForward: boolean,
): void {
  if (fixForward) return;
  const failed = journal?.segments.find((segment) => segment.rollbackFailed !== undefined);
  if (!failed?.rollbackFailed) return;
  const stack = stateName.replaceAll('/', '~');
  const topLevel = stateName.split('/')[0]!;
  throw new CdkdError(
    'UPDATE_ROLLBACK_FAILED',
    `The last rollback of ${stack} failed (run ${failed.runId}, ${failed.rollbackFailed.at}: ${failed.rollbackFailed.reason}), so the stack can only be rolled back or destroyed, as CloudFormation leaves a stack in UPDATE_ROLLBACK_FAILED; nothing was deployed.`,
    {
      hint: `Fix the cause and run cdkd rollback ${stack} (--orphan <logicalId> leaves a resource that cannot be rolled back as it is), or cdkd destroy ${topLevel}; to deploy over it instead (the deploy settles its rollback journal as any successful deploy does), pass --fix-forward.`,
    },
  );
}

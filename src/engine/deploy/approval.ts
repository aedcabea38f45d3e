import { CdkdError } from '../../errors.js';
import { approvalNeeded, summarizePlan, type ApprovalLevel } from '../../plan/index.js';
import { ioQuestion, type CommandName, type IoHost } from '../../messages/index.js';
import type { StackDeployResult } from './deploy-result.js';

/**
 * `--require-approval`: asks before a stack whose dry run (`review`) needs approval at `level`
 * deploys; a "no" stops it with nothing touched. A host that cannot ask answers no.
 */
export async function approveChanges(
  services: { io: IoHost; command: CommandName },
  review: StackDeployResult,
  level: ApprovalLevel,
): Promise<void> {
  const summary = summarizePlan(review.plan);
  const changes = summary.create + summary.update + summary.replace + summary.delete > 0;
  const broadened = review.security?.broadened ?? false;
  if (!approvalNeeded(level, { changes, broadened })) return;
  const why = broadened ? 'widening its permissions as listed' : 'making the changes listed';
  const question = ioQuestion(
    services.command,
    'CDKD_Q2101',
    `Deploy ${review.stackName}, ${why}?`,
    { stackName: review.stackName, level, broadened, review },
    false,
  );
  if (!(await services.io.ask(question))) throw new CdkdError('CANCELLED', 'Cancelled; nothing was changed.');
}

import {
  hasSecurityChanges,
  NO_PAINT,
  renderPlanText,
  renderSecurityChanges,
  resourceChanges,
  type Paint,
} from '../../plan/index.js';
import type { ApprovalRequest, StackDeployResult } from '../../messages/index.js';

/** Green additions and red removals on a TTY; plain text anywhere else, or with NO_COLOR / --no-color. */
export function paintFor(stream: { isTTY?: boolean }): Paint {
  if (stream.isTTY !== true || (process.env.NO_COLOR ?? '') !== '') return NO_PAINT;
  return { added: (text) => `\x1b[32m${text}\x1b[39m`, removed: (text) => `\x1b[31m${text}\x1b[39m` };
}

/**
 * A dry run as `cdkd diff` prints it: the plan's rows, each changed resource's properties
 * old → new under it, then the security tables.
 */
export function renderReview(
  result: StackDeployResult,
  options: { contextLines: number; paint: Paint },
): string {
  const changes = resourceChanges(result.plan, result.values ?? {}, {
    stateful: result.stateful ?? [],
    contextLines: options.contextLines,
  });
  const plan = renderPlanText(result.plan, {
    stateful: result.stateful ?? [],
    changes,
    paint: options.paint,
  });
  const security = result.security ? renderSecurityChanges(result.security, options.paint) : '';
  return security ? `${plan}${security}` : plan;
}

/** What `--require-approval` shows before it asks: the security tables, else the whole review. */
export function renderApprovalRequest(request: ApprovalRequest, paint: Paint): string {
  const { review } = request;
  if (review.security && hasSecurityChanges(review.security)) {
    const motivation = request.broadened
      ? 'includes security-sensitive changes that widen permissions'
      : 'includes security-sensitive changes';
    return `Stack ${request.stackName} ${motivation}:\n${renderSecurityChanges(review.security, paint)}`;
  }
  return `Stack ${request.stackName} includes changes:\n${renderReview(review, { contextLines: 0, paint })}`;
}

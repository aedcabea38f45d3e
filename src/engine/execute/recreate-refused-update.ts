import { awsErrorCode } from '../../aws/error-class.js';
import { CdkdError, isCdkdError, messageOf } from '../../errors.js';
import { checkStatefulReplacements, type PlannedOperation } from '../../plan/index.js';
import { replaceResource } from './replace-resource.js';
import type { ReplaceHost } from './executor-services.js';

/**
 * Spec 002's update-failure fallback: the refused update is re-created instead, guarded like
 * any replacement. No probe runs mid-deploy, so a bucket or log group counts as holding data.
 */
export async function recreateRefusedUpdate(
  executor: ReplaceHost,
  op: PlannedOperation,
  refusal: unknown,
  release: () => void,
): Promise<void> {
  const { services } = executor;
  const recorded = services.state.record(op.logicalId)!;
  try {
    checkStatefulReplacements({
      operations: [{ ...op, kind: 'replace' }],
      recorded: { [op.logicalId]: recorded },
      forceStatefulRecreation: services.forceStatefulRecreation === true,
    });
  } catch (error) {
    // Mid-deploy the refusal is wrapped in the deploy's failure: its remedy goes in the message.
    if (!isCdkdError(error)) throw error;
    throw new CdkdError(error.code, `${error.message} ${error.hint ?? ''}`.trim(), { hint: error.hint });
  }
  services.events({
    kind: 'warning',
    stack: services.state.ref.stackName,
    message: `${op.logicalId}: Cloud Control refused the update (${awsErrorCode(refusal)}: ${messageOf(refusal)}); re-creating it instead.`,
  });
  // Re-created on the layer that refused the update, not re-routed as a new resource would be.
  await replaceResource(executor, { ...op, recreateVia: 'cc-api' }, op.updateReplacePolicy, release, true);
}

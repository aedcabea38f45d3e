import { CdkdError } from '../../errors.js';
import type { DeleteRequest, Provider, ProviderContext } from '../../providers/index.js';

/**
 * The resources this run created whose provider says when they are usable (`Provider.untilUsable`):
 * the deploy waits for them together before it reports success, as CloudFormation reports a
 * resource done only once it is usable, so each create need not wait on its own.
 */
export class CreatedResources {
  private readonly made: Array<{ provider: Provider; request: DeleteRequest }> = [];

  add(provider: Provider, request: DeleteRequest): void {
    if (provider.untilUsable) this.made.push({ provider, request });
  }

  /** Waits for every recorded resource in parallel; rejects naming each one that never became usable. */
  async settle(context: ProviderContext): Promise<void> {
    const pending = this.made.splice(0);
    const outcomes = await Promise.allSettled(
      pending.map(({ provider, request }) => provider.untilUsable!(request, context)),
    );
    const failures = outcomes.flatMap((outcome, index) =>
      outcome.status === 'rejected'
        ? [{ logicalId: pending[index]!.request.logicalId, error: outcome.reason as unknown }]
        : [],
    );
    if (failures.length === 0) return;
    const detail = failures
      .map(
        ({ logicalId, error }) => `${logicalId}: ${error instanceof Error ? error.message : String(error)}`,
      )
      .join('; ');
    throw new CdkdError('DEPLOY_FAILED', `Resources this deploy created did not become usable: ${detail}`, {
      hint: 'Fix the cause named above and run cdkd deploy again.',
      cause: failures[0]!.error,
    });
  }
}

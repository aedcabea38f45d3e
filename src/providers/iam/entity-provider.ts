import type { ProviderContext, ResourceRequest } from '../provider.js';
import { MadeByAttempts, type MadeResource } from '../resource-made.js';
import { SdkProvider } from '../skeleton.js';
import { undoCreate } from './common.js';

/**
 * The skeleton of an IAM entity with children (a role's or user's policies, a user's groups,
 * a profile's role, a policy's attachments), whose create is undone when a child fails.
 */
export abstract class IamEntityProvider extends SdkProvider {
  /** Per idempotency token, the entity an attempt made and could not remove. */
  protected readonly made = new MadeByAttempts();

  /**
   * Runs a create's steps after its entity `made` exists; when one fails, the entity is
   * removed before the error surfaces (see `undoCreate`).
   */
  protected async completeCreate<T>(
    request: ResourceRequest,
    context: ProviderContext,
    made: MadeResource,
    steps: () => Promise<T>,
  ): Promise<T> {
    const token = request.idempotencyToken;
    let result: T;
    try {
      result = await steps();
    } catch (error) {
      return undoCreate(
        made,
        () => this.delete({ ...request, physicalId: made.physicalId }, context),
        error,
        {
          made: this.made,
          token,
        },
      );
    }
    this.made.forget(token);
    return result;
  }
}

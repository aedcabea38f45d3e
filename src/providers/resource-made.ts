import { awsErrorCode } from '../aws/error-class.js';
import { ResourceMadeError, type CreationIdentity } from './provider.js';

/** What a create made: the id it would have recorded and, where known, its creation identity. */
export interface MadeResource {
  physicalId: string;
  creationIdentity?: CreationIdentity;
}

/**
 * The ResourceMadeError a create throws when a follow-up call failed after its create call
 * returned. It carries the fields retry classification reads (src/aws/error-class.ts: the
 * AWS code, `code`, `$metadata`, `$retryable`; the message is the failure's already), so
 * the engine's retry schedule treats it exactly as it treats `failure`: a throttled
 * follow-up is still retried, and that retry takes the resource back (see MadeByAttempts)
 * instead of making a second one.
 */
export function resourceMade(made: MadeResource, failure: unknown): ResourceMadeError {
  const error = new ResourceMadeError(
    {
      physicalId: made.physicalId,
      ...(made.creationIdentity ? { creationIdentity: made.creationIdentity } : {}),
    },
    failure,
  );
  if (typeof failure !== 'object' || failure === null) return error;
  const shape = failure as Record<string, unknown>;
  const code = awsErrorCode(failure);
  return Object.assign(error, {
    ...(code !== undefined ? { Code: code } : {}),
    ...('code' in shape ? { code: shape.code } : {}),
    ...('$metadata' in shape ? { $metadata: shape.$metadata } : {}),
    ...('$retryable' in shape ? { $retryable: shape.$retryable } : {}),
  });
}

/**
 * Per idempotency token, the resource an attempt of one logical create made and left in
 * place when it failed. The engine retries a create with the same token, so the retry
 * takes that resource back (or proves it again) instead of colliding with its name or
 * making a second one. Without a token nothing is remembered.
 */
export class MadeByAttempts {
  private readonly byToken = new Map<string, MadeResource>();

  get(token: string | undefined): MadeResource | undefined {
    return token === undefined ? undefined : this.byToken.get(token);
  }

  remember(token: string | undefined, made: MadeResource): void {
    if (token !== undefined) this.byToken.set(token, made);
  }

  forget(token: string | undefined): void {
    if (token !== undefined) this.byToken.delete(token);
  }

  /**
   * The error a failed follow-up surfaces as: a ResourceMadeError naming what was made,
   * remembered for the retry of the same create.
   */
  failed(token: string | undefined, made: MadeResource, failure: unknown): ResourceMadeError {
    this.remember(token, made);
    return resourceMade(made, failure);
  }
}

/** Whether `live` is the resource `remembered` describes: every remembered identity field agrees. */
export function sameIdentity(remembered: CreationIdentity | undefined, live: CreationIdentity): boolean {
  if (remembered === undefined) return true;
  return Object.entries(remembered).every(([key, value]) => live[key] === value);
}

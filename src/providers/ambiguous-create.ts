import { classifyAwsError } from '../aws/error-class.js';
import { CdkdError, isCdkdError, messageOf } from '../errors.js';
import { outcomeUnknown } from './outcome-unknown.js';
import type { CreateResult, Provider, ProviderContext, ResourceRequest } from './provider.js';
import { resourceMade, type MadeResource } from './resource-made.js';

/**
 * One logical create as a function to retry (spec 003, "Ambiguous creates"). After an attempt
 * whose outcome is unknown (a 5xx, a lost connection), the next attempt first asks the
 * provider's `locate` what that attempt made: a proven resource completes the create (read,
 * then brought to the requested properties; it counts as made by this create from then on);
 * `none` sends the create again; `unknown` (a name the template gives) sends it again, and a
 * name then found taken is reported as one an earlier attempt may hold, never adopted.
 * Cloud Control's creates carry a ClientToken: sent again, the service answers the first
 * request's progress itself.
 */
export function createAttempts(
  provider: Provider,
  request: ResourceRequest,
  context: ProviderContext,
): CreateAttempts {
  if (provider.kind === 'cc-api') {
    return Object.assign(() => provider.create(request, context), {
      settle: async (error: unknown) => error,
    });
  }
  let earlierUnknown = false;
  let located: string | undefined;
  const attempt = async () => {
    let unproven = false;
    if (located === undefined && earlierUnknown) {
      const answer = provider.locate ? await provider.locate(request, context) : 'unknown';
      if (typeof answer === 'object') located = answer.physicalId;
      unproven = answer === 'unknown';
    }
    if (located !== undefined) {
      const completed = await complete(provider, request, context, located);
      if (completed) return completed;
      located = undefined;
    }
    try {
      return await provider.create(request, context);
    } catch (error) {
      if (unproven && nameTaken(error)) throw earlierAttemptMayHold(request, error);
      if (outcomeUnknown(error)) earlierUnknown = true;
      throw error;
    }
  };
  /** The last attempt's answer was lost too: what one of them made is this create's, so it is reported made. */
  const settle = async (error: unknown): Promise<unknown> => {
    if (!earlierUnknown || located !== undefined || !provider.locate) return error;
    try {
      const answer = await provider.locate(request, context);
      if (typeof answer !== 'object') return error;
      const target = { logicalId: request.logicalId, type: request.type, physicalId: answer.physicalId };
      const live = await provider.read({ ...target, properties: request.properties }, context);
      if (!live) return error;
      return resourceMade(
        {
          physicalId: answer.physicalId,
          ...(live.creationIdentity && { creationIdentity: live.creationIdentity }),
        },
        error,
      );
    } catch {
      // No answer (the deploy's signal, an outage): the create's own failure stands.
      return error;
    }
  };
  return Object.assign(attempt, { settle });
}

/** A create to retry, and what to throw once the retry has given up. */
export interface CreateAttempts {
  (): Promise<CreateResult>;
  /**
   * The error the create fails with: `error` itself, or a ResourceMadeError naming the resource
   * an attempt whose answer was lost is found to have made (deleted by the rollback like any
   * other failed create's).
   */
  settle(error: unknown): Promise<unknown>;
}

/**
 * The create's result for the resource an earlier attempt made: its live record, updated to
 * the request's properties where they differ from it (the follow-up calls that attempt never
 * reached, an inline policy of a role). Undefined when
 * the resource is gone again. A failure here leaves a resource this create made.
 */
async function complete(
  provider: Provider,
  request: ResourceRequest,
  context: ProviderContext,
  physicalId: string,
): Promise<CreateResult | undefined> {
  const target = { logicalId: request.logicalId, type: request.type, physicalId };
  let made: MadeResource = { physicalId };
  try {
    const live = await provider.read({ ...target, properties: request.properties }, context);
    if (!live) return undefined;
    if (live.creationIdentity) made = { physicalId, creationIdentity: live.creationIdentity };
    // Only what the template gives is brought in line: a default the read reports is left alone.
    const previousProperties = Object.fromEntries(
      Object.keys(request.properties)
        .filter((key) => key in live.properties)
        .map((key) => [key, live.properties[key]]),
    );
    const updated = await provider.update({ ...request, physicalId, previousProperties }, context);
    return {
      physicalId: updated.physicalId,
      attributes: updated.attributes,
      ...(updated.ref !== undefined && { ref: updated.ref }),
      ...(updated.observed !== undefined && { observed: updated.observed }),
      ...(made.creationIdentity && { creationIdentity: made.creationIdentity }),
    };
  } catch (failure) {
    throw resourceMade(made, failure);
  }
}

function nameTaken(error: unknown): boolean {
  if (isCdkdError(error)) return error.code === 'NAMED_CREATE_COLLISION';
  return classifyAwsError(error) === 'already-exists';
}

function earlierAttemptMayHold(request: ResourceRequest, error: unknown): CdkdError {
  return new CdkdError(
    'AMBIGUOUS_CREATE_NAME_TAKEN',
    `An earlier attempt of this create lost its answer, and sent again its name is taken (${messageOf(error)}): that attempt may have made the resource, but cdkd cannot prove it, so it neither adopts nor deletes it; check the resource holding the name, then \`cdkd import\` it if it is this deploy's, or delete it by hand`,
    {
      hint: `Check the resource holding that name: if it is the one this deploy made, bring it under cdkd with \`cdkd import\`; otherwise delete it by hand or give ${request.logicalId} another name, then deploy again.`,
      cause: error,
    },
  );
}

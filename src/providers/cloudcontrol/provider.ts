import { randomUUID } from 'node:crypto';
import type { CloudControlClient, ProgressEvent } from '@aws-sdk/client-cloudcontrol';
import { awsErrorCode } from '../../aws/error-class.js';
import { cloudControlSdk } from '../../aws/sdk-modules.js';
import { messageOf } from '../../errors.js';
import {
  isKnownType,
  primaryIdentifierOf,
  PROTECTION_OFF_ALLOWANCE_MS,
  protectionOffChanges,
  replacementOf,
  schemaFor,
} from '../../resource-types/index.js';
import { partitionForRegion } from '../../template/pseudo-parameters.js';
import { systemClock, type Clock } from '../clock.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  LocateAnswer,
  NameLookup,
  Provider,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { attributesFromModel, propertiesFromModel, refFromModel } from './model.js';
import { NAME_ADOPTING_TYPES } from '../name-adopting-types.js';
import { withUserSuppliedName } from '../user-supplied-names.js';
import { elbv2NameHolder, isElbv2Named } from './elbv2-names.js';
import { desiredStatePatch } from './patch.js';
import { waitForRequest, type CcOperation } from './polling.js';
import { CloudControlRequestFailed } from './request-failed.js';

/** Cloud Control honours a ClientToken for 36 hours after its use; an hour's margin. */
const CLIENT_TOKEN_TRUSTED_MS = 35 * 60 * 60 * 1000;
/** Pages of ListResourceRequests `locate` reads at most; an account busier than that leaves it unknown. */
const MAX_REQUEST_PAGES = 20;

export interface CloudControlProviderOptions {
  clock?: Clock;
  /** The client for a context; defaults to `context.clients.cloudControl(context.region)`. */
  client?: (context: ProviderContext) => Promise<CloudControlClient>;
  onStatus?: (event: ProgressEvent) => void;
}

/**
 * Any type Cloud Control can address, through CreateResource / UpdateResource (an RFC
 * 6902 patch) / DeleteResource / GetResource, waiting on each request by polling. The
 * physical id is the Cloud Control identifier (parts of a composite one joined by `|`).
 */
export class CloudControlProvider implements Provider {
  readonly kind = 'cc-api' as const;
  private readonly clock: Clock;
  /** Per idempotency token, how many of its requests ended FAILED. */
  private readonly failedAttempts = new Map<string, number>();

  constructor(private readonly options: CloudControlProviderOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  handles(type: string): boolean {
    return isKnownType(type) && primaryIdentifierOf(type).length > 0;
  }

  /** Only a create-only property (the schema's `causesReplacement: yes`) forces a new resource. */
  canUpdateInPlace(type: string, changedProperties: readonly string[]): boolean {
    return !changedProperties.some((property) => replacementOf(type, property) === 'yes');
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await this.client(context);
    const { CreateResourceCommand } = await cloudControlSdk();
    const idempotencyToken = request.idempotencyToken ?? randomUUID();
    const accepted = await client.send(
      new CreateResourceCommand({
        TypeName: request.type,
        DesiredState: JSON.stringify(withUserSuppliedName(request.type, request.properties, context)),
        ClientToken: this.clientToken(idempotencyToken),
      }),
      { abortSignal: context.signal },
    );
    // Journaled while the first status check waits (a second on AWS), not before it.
    const [, event] = await Promise.all([
      request.onAccepted?.(accepted.ProgressEvent!.RequestToken!),
      this.finish(client, accepted.ProgressEvent!, request.type, 'create', context, idempotencyToken),
    ]);
    const physicalId = event.Identifier!;
    const model = await this.modelAfter(client, event, request.type, physicalId, context);
    const ref = refFromModel(request.type, model, physicalId);
    const attributes = attributesFromModel(request.type, model);
    const creationIdentity: CreationIdentity = { ccRequestToken: event.RequestToken! };
    if (typeof attributes.Arn === 'string') creationIdentity.Arn = attributes.Arn;
    return { physicalId, attributes, ...(ref !== undefined ? { ref } : {}), creationIdentity };
  }

  /**
   * What the Cloud Control request an earlier attempt of this create was accepted as made,
   * waiting for it to end: a request that ended with an identifier Cloud Control still
   * resolves made that resource, unless it failed on that identifier being taken (the id of
   * a resource it collided with proves nothing); one that ended without one made nothing.
   * The request is the journaled one, else the one `receivedRequest` finds. A request Cloud
   * Control no longer knows, or none to ask about, proves nothing.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    const client = await this.client(context);
    const status =
      request.acceptedRequest !== undefined
        ? await this.requestStatus(client, request.acceptedRequest, context)
        : await this.receivedRequest(client, request, context);
    if (status === undefined || status === 'none') return status ?? 'unknown';
    const event = await waitForRequest(client, status, {
      type: request.type,
      operation: 'create',
      clock: this.clock,
      signal: context.signal,
      onStatus: this.options.onStatus,
    });
    const identifier = event.Identifier;
    if (event.OperationStatus === 'SUCCESS' && identifier) return { physicalId: identifier };
    if (!identifier || event.ErrorCode === 'AlreadyExists') return 'none';
    // A failed create that had an identifier may have left its resource behind.
    return (await this.get(client, request.type, identifier, context)) ? { physicalId: identifier } : 'none';
  }

  /**
   * The identifier a create gets when the template gives every part of it (a composite one's
   * parts joined by `|`), or an ARN the schema builds from a name it gives; known before the call.
   */
  createName(request: ResourceRequest, context: ProviderContext): string | undefined {
    const sent = withUserSuppliedName(request.type, request.properties, context);
    const parts = primaryIdentifierOf(request.type).map((property) => sent[property]);
    if (parts.length > 1 && parts.every((part) => typeof part === 'string' && part !== '')) {
      return parts.join('|');
    }
    return identifierFromName(request.type, sent, context)?.identifier;
  }

  private async requestStatus(
    client: CloudControlClient,
    requestToken: string,
    context: ProviderContext,
  ): Promise<ProgressEvent | undefined> {
    const { GetResourceRequestStatusCommand } = await cloudControlSdk();
    try {
      const output = await client.send(new GetResourceRequestStatusCommand({ RequestToken: requestToken }), {
        abortSignal: context.signal,
      });
      return output.ProgressEvent!;
    } catch (error) {
      if (awsErrorCode(error) === 'RequestTokenNotFoundException') return undefined;
      throw error;
    }
  }

  /**
   * The request a create whose acceptance was never journaled (a process killed while
   * CreateResource was on its way) was received as, by its ClientToken, while Cloud Control
   * still honours that (36 hours): none when Cloud Control lists no create of the type at all;
   * else the create sent again under the token, which Cloud Control answers with the first
   * request when it received one (one it lists), or accepts as new when it did not. A new
   * one is this question's own: cancelled at once, and what it made before the cancel took
   * counts as the create's. A token used with other properties (a NoEcho value the journal
   * masks) proves nothing.
   */
  private async receivedRequest(
    client: CloudControlClient,
    request: ResourceRequest,
    context: ProviderContext,
  ): Promise<ProgressEvent | 'none' | undefined> {
    const token = request.idempotencyToken;
    if (token === undefined || request.journaledAt === undefined) return undefined;
    if (Date.now() - Date.parse(request.journaledAt) > CLIENT_TOKEN_TRUSTED_MS) return undefined;
    const listed = await this.createRequestsOf(client, request.type, context);
    if (listed === undefined) return undefined;
    if (listed.size === 0) return 'none';
    const { CreateResourceCommand, CancelResourceRequestCommand } = await cloudControlSdk();
    let event: ProgressEvent;
    try {
      const accepted = await client.send(
        new CreateResourceCommand({
          TypeName: request.type,
          DesiredState: JSON.stringify(withUserSuppliedName(request.type, request.properties, context)),
          ClientToken: token,
        }),
        { abortSignal: context.signal },
      );
      event = accepted.ProgressEvent!;
    } catch (error) {
      if (awsErrorCode(error) === 'ClientTokenConflictException') return undefined;
      throw error;
    }
    if (listed.has(event.RequestToken!)) return event;
    await client
      .send(new CancelResourceRequestCommand({ RequestToken: event.RequestToken! }), {
        abortSignal: context.signal,
      })
      .catch(() => undefined);
    return event;
  }

  /** The request tokens of every create of `type` Cloud Control lists; undefined past MAX_REQUEST_PAGES. */
  private async createRequestsOf(
    client: CloudControlClient,
    type: string,
    context: ProviderContext,
  ): Promise<Set<string> | undefined> {
    const { ListResourceRequestsCommand } = await cloudControlSdk();
    const tokens = new Set<string>();
    let NextToken: string | undefined;
    for (let page = 0; page < MAX_REQUEST_PAGES; page += 1) {
      const output = await client.send(
        new ListResourceRequestsCommand({
          ResourceRequestStatusFilter: { Operations: ['CREATE'] },
          ...(NextToken !== undefined && { NextToken }),
        }),
        { abortSignal: context.signal },
      );
      for (const summary of output.ResourceRequestStatusSummaries ?? []) {
        if (summary.TypeName === type && summary.RequestToken) tokens.add(summary.RequestToken);
      }
      NextToken = output.NextToken;
      if (NextToken === undefined) return tokens;
    }
    return undefined;
  }

  /**
   * For a name-adopting type, a Cloud Control read by its primary identifier: the name itself,
   * or an ARN the schema builds from the name (a state machine). An ELBv2 load balancer or
   * target group, whose identifier is an ARN with an id AWS assigns, is looked up by name
   * through ELBv2 itself.
   */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    if (!NAME_ADOPTING_TYPES.has(request.type)) return undefined;
    const sent = withUserSuppliedName(request.type, request.properties, context);
    if (isElbv2Named(request.type)) return elbv2NameHolder(request.type, sent, context);
    const lookup = identifierFromName(request.type, sent, context);
    if (!lookup) return undefined;
    const live = await this.get(await this.client(context), request.type, lookup.identifier, context);
    return live ? { name: lookup.name, holder: lookup.identifier } : { name: lookup.name };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await this.client(context);
    const patch = desiredStatePatch(request.previousProperties, request.properties);
    let model: JsonObject;
    if (patch.length === 0) {
      model = (await this.get(client, request.type, request.physicalId, context)) ?? {};
    } else {
      const event = await this.sendPatch(client, request, patch, context);
      model = await this.modelAfter(client, event, request.type, request.physicalId, context);
    }
    const ref = refFromModel(request.type, model, request.physicalId);
    return {
      physicalId: request.physicalId,
      attributes: attributesFromModel(request.type, model),
      ...(ref !== undefined ? { ref } : {}),
    };
  }

  /**
   * Deletes the resource. Under --remove-protection, a resource whose recorded properties turn
   * its deletion protection on is first updated to turn it off, and the delete then gets a
   * 10-second allowance for the service to see that.
   */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await this.client(context);
    const changes = request.removeProtection
      ? protectionOffChanges(request.type, request.properties)
      : undefined;
    try {
      if (changes) await this.patch(client, request, changes, context);
      const deadline = this.clock.now() + (changes ? PROTECTION_OFF_ALLOWANCE_MS : 0);
      for (;;) {
        try {
          return await this.deleteOnce(client, request, context);
        } catch (error) {
          if (!/protect/i.test(messageOf(error)) || this.clock.now() >= deadline) throw error;
          await this.clock.sleep(1000, context.signal);
        }
      }
    } catch (error) {
      // Already gone is what a delete wants.
      if (isNotFound(error)) return;
      throw error;
    }
  }

  private async deleteOnce(
    client: CloudControlClient,
    request: DeleteRequest,
    context: ProviderContext,
  ): Promise<void> {
    const { DeleteResourceCommand } = await cloudControlSdk();
    const accepted = await client.send(
      new DeleteResourceCommand({
        TypeName: request.type,
        Identifier: request.physicalId,
        ClientToken: randomUUID(),
      }),
      { abortSignal: context.signal },
    );
    await this.finish(client, accepted.ProgressEvent!, request.type, 'delete', context);
  }

  /** Sets these top-level properties in place (an RFC 6902 `add` replaces a member that exists). */
  private async patch(
    client: CloudControlClient,
    request: DeleteRequest,
    changes: JsonObject,
    context: ProviderContext,
  ): Promise<void> {
    const patch = Object.entries(changes).map(([key, value]) => ({ op: 'add', path: `/${key}`, value }));
    await this.sendPatch(client, request, patch, context);
  }

  /** Sends an RFC 6902 patch document for the resource and waits for Cloud Control to finish it. */
  private async sendPatch(
    client: CloudControlClient,
    request: { type: string; physicalId: string },
    patch: readonly object[],
    context: ProviderContext,
  ): Promise<ProgressEvent> {
    const { UpdateResourceCommand } = await cloudControlSdk();
    const accepted = await client.send(
      new UpdateResourceCommand({
        TypeName: request.type,
        Identifier: request.physicalId,
        PatchDocument: JSON.stringify(patch),
        ClientToken: randomUUID(),
      }),
      { abortSignal: context.signal },
    );
    return this.finish(client, accepted.ProgressEvent!, request.type, 'update', context);
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const model = await this.get(await this.client(context), request.type, request.physicalId, context);
    if (!model) return undefined;
    return {
      properties: propertiesFromModel(request.type, model),
      attributes: attributesFromModel(request.type, model),
    };
  }

  /**
   * The ClientToken for the next attempt of a logical create: the same while earlier
   * attempts' outcomes are unknown (a lost response replays into the first request), a
   * new one once a request ended FAILED (it made nothing, and the same token would only
   * replay that failure).
   */
  private clientToken(idempotencyToken: string): string {
    const failures = this.failedAttempts.get(idempotencyToken) ?? 0;
    return failures === 0 ? idempotencyToken : `${idempotencyToken}-${failures}`;
  }

  private async finish(
    client: CloudControlClient,
    accepted: ProgressEvent,
    type: string,
    operation: CcOperation,
    context: ProviderContext,
    idempotencyToken?: string,
  ): Promise<ProgressEvent> {
    const event = await waitForRequest(client, accepted, {
      type,
      operation,
      clock: this.clock,
      signal: context.signal,
      onStatus: this.options.onStatus,
    });
    if (event.OperationStatus === 'SUCCESS') return event;
    if (idempotencyToken !== undefined) {
      this.failedAttempts.set(idempotencyToken, (this.failedAttempts.get(idempotencyToken) ?? 0) + 1);
    }
    throw new CloudControlRequestFailed(event);
  }

  /** The model the final event carries, else a read (an event need not carry one). */
  private async modelAfter(
    client: CloudControlClient,
    event: ProgressEvent,
    type: string,
    identifier: string,
    context: ProviderContext,
  ): Promise<JsonObject> {
    if (event.ResourceModel) return JSON.parse(event.ResourceModel) as JsonObject;
    return (await this.get(client, type, identifier, context)) ?? {};
  }

  private async get(
    client: CloudControlClient,
    type: string,
    identifier: string,
    context: ProviderContext,
  ): Promise<JsonObject | undefined> {
    const { GetResourceCommand } = await cloudControlSdk();
    try {
      const output = await client.send(new GetResourceCommand({ TypeName: type, Identifier: identifier }), {
        abortSignal: context.signal,
      });
      return JSON.parse(output.ResourceDescription?.Properties ?? '{}') as JsonObject;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private client(context: ProviderContext): Promise<CloudControlClient> {
    return this.options.client?.(context) ?? context.clients.cloudControl(context.region);
  }
}

/** The primary identifier a create would get, when the template's name alone makes it. */
function identifierFromName(
  type: string,
  properties: JsonObject,
  context: ProviderContext,
): { name: string; identifier: string } | undefined {
  const identifier = primaryIdentifierOf(type);
  if (identifier.length !== 1) return undefined;
  const direct = properties[identifier[0]!];
  if (typeof direct === 'string' && direct !== '') return { name: direct, identifier: direct };
  const template = schemaFor(type)?.arnTemplate;
  if (direct !== undefined || !template || !identifier[0]!.endsWith('Arn')) return undefined;
  let name: string | undefined;
  let complete = true;
  const arn = template.replace(/\$\{([^}]+)\}/g, (_, variable: string) => {
    if (variable === 'Partition') return partitionForRegion(context.region);
    if (variable === 'Region') return context.region;
    if (variable === 'Account') return context.accountId;
    const value = properties[variable];
    if (typeof value !== 'string' || value === '') complete = false;
    name ??= String(value);
    return String(value);
  });
  return complete && name !== undefined ? { name, identifier: arn } : undefined;
}

function isNotFound(error: unknown): boolean {
  const code = awsErrorCode(error);
  return code === 'ResourceNotFoundException' || code === 'NotFound';
}

import { randomUUID } from 'node:crypto';
import type { AwsClients } from '../../aws/index.js';
import { CdkdError } from '../../errors.js';
import { systemClock, type Clock } from '../clock.js';
import { isCustomResourceType } from '../handled-types.js';
import {
  OutcomeUnknownError,
  ResourceMadeError,
  type CreateResult,
  type CustomResourceSite,
  type DeleteRequest,
  type JsonObject,
  type LiveResource,
  type LocateAnswer,
  type Provider,
  type ProviderContext,
  type ResourceRequest,
  type UpdateRequest,
  type UpdateResult,
} from '../provider.js';
import { noOuterRetry } from '../retry-class.js';
import { awsTransport } from './aws-transport.js';
import { reinvocationBudget, serviceTimeoutSeconds } from './budgets.js';
import { awaitAnswer, deliver, requestIdFor, type DeliveryPorts } from './delivery.js';
import type { HandlerTransport } from './ports.js';
import type { RequestType } from './request.js';
import { BadResponseError, readResponse, type HandlerAnswer } from './response.js';
import { serviceTarget } from './service-token.js';

/** How long `locate` waits for a response a killed deploy's handler may still be writing. */
const LOCATE_WAIT_S = 60;

export interface CustomResourceDeps {
  transport?: (clients: AwsClients) => HandlerTransport;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** The longest wait for an answer, whatever ServiceTimeout says: a harness's bound on a silent handler. */
  timeoutCapSeconds?: number;
}

/**
 * `Custom::*` and `AWS::CloudFormation::CustomResource`: each change is a request sent to the
 * ServiceToken's handler exactly as CloudFormation sends it, answered through a pre-signed URL
 * in the state bucket. Retries happen inside (spec 003, "Providers outside the outer retry"):
 * every error leaving this provider is marked so the outer schedule never replays it.
 */
export class CustomResourceProvider implements Provider {
  readonly kind = 'sdk' as const;
  private readonly clock: Clock;

  constructor(private readonly deps: CustomResourceDeps = {}) {
    this.clock = deps.clock ?? systemClock;
  }

  handles(type: string): boolean {
    return isCustomResourceType(type);
  }

  /** Every property change is an Update request; the handler decides whether it makes a new resource. */
  canUpdateInPlace(): boolean {
    return true;
  }

  create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    return final(async () => {
      const answer = await this.send('Create', request, context, {
        requestId: request.idempotencyToken ?? randomUUID(),
      }).catch((error: unknown) => {
        // An invalid answer that still names its resource: the handler may have made it.
        if (error instanceof BadResponseError && error.physicalId) {
          throw new ResourceMadeError({ physicalId: error.physicalId }, error);
        }
        throw error;
      });
      if (answer.status === 'FAILED') {
        const failure = handlerFailed(request.logicalId, 'Create', answer.reason);
        // A failed Create that names its resource gets a Delete on rollback, as CloudFormation sends.
        throw answer.physicalId ? new ResourceMadeError({ physicalId: answer.physicalId }, failure) : failure;
      }
      return { physicalId: answer.physicalId, attributes: answer.data, ...noEchoOf(answer) };
    });
  }

  update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    return final(async () => {
      const answer = await this.send('Update', request, context, {
        requestId: randomUUID(),
        physicalId: request.physicalId,
        oldProperties: request.previousProperties,
      });
      if (answer.status === 'FAILED') throw handlerFailed(request.logicalId, 'Update', answer.reason);
      return {
        physicalId: answer.physicalId,
        attributes: answer.data,
        ...noEchoOf(answer),
        ...(answer.physicalId !== request.physicalId ? { oldNeedsDelete: true } : {}),
      };
    });
  }

  delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    return final(async () => {
      const answer = await this.send('Delete', request, context, {
        requestId: request.idempotencyToken ?? randomUUID(),
        physicalId: request.physicalId,
      });
      if (answer.status === 'FAILED') throw handlerFailed(request.logicalId, 'Delete', answer.reason);
    });
  }

  /**
   * A handler's resource cannot be read back: it is taken to be as recorded, unless the read
   * names a Delete a killed process left in flight (its journaled token, the RequestId). Then
   * the handler's answer decides: SUCCESS is gone; FAILED, or a Delete never sent, is as
   * recorded; no answer yet rejects, so the record stays until one can be read.
   */
  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const recorded = { properties: request.properties, attributes: {} };
    if (request.idempotencyToken === undefined) return recorded;
    const answers = await this.answersTo(request.idempotencyToken, request.logicalId, context);
    if (answers === 'unknown') {
      throw new OutcomeUnknownError(
        `${request.logicalId}: the handler has not answered the Delete request ${request.idempotencyToken} yet`,
      );
    }
    return answers.at(-1)?.status === 'SUCCESS' ? undefined : recorded;
  }

  /**
   * What an in-flight Create made, from the answers at the journaled request's key (the
   * RequestId is the create's idempotency token): the physical id an answer names (a FAILED
   * one, or one invalid in another way, counts: the handler may have made it), `none` when
   * none does, `unknown` while no answer can be read.
   */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!request.idempotencyToken) return 'unknown';
    const answers = await this.answersTo(request.idempotencyToken, request.logicalId, context);
    if (answers === 'unknown' || answers.length === 0) return 'unknown';
    const physicalId = answers.find((answer) => answer.physicalId)?.physicalId;
    return physicalId ? { physicalId } : 'none';
  }

  /**
   * The answers to the request journaled as `token` and its re-invocations, in order, up to
   * the first attempt with no placeholder (never sent, or its answer already taken): none at
   * all when the first has none; `unknown` while an attempt is unanswered. An invalid answer
   * reads as FAILED, with the physical id it still names.
   */
  private async answersTo(
    token: string,
    logicalId: string,
    context: ProviderContext,
  ): Promise<HandlerAnswer[] | 'unknown'> {
    const site = siteOf(logicalId, context);
    const answers: HandlerAnswer[] = [];
    for (let attempt = 0; attempt <= reinvocationBudget(this.deps.env); attempt += 1) {
      const requestId = requestIdFor(token, attempt);
      const read = await site.responses.read(requestId);
      if (read.kind === 'missing') break;
      try {
        const body = await awaitAnswer(
          site.responses,
          requestId,
          { logicalId, timeoutSeconds: LOCATE_WAIT_S, ...signalOf(site) },
          this.clock,
        );
        answers.push(readResponse(body, { logicalId, requestId }));
      } catch (error) {
        if (!(error instanceof BadResponseError)) return 'unknown';
        answers.push({
          status: 'FAILED',
          reason: error.message,
          ...(error.physicalId ? { physicalId: error.physicalId } : {}),
        });
      }
      if (answers.at(-1)!.status === 'SUCCESS') break;
    }
    return answers;
  }

  private async send(
    requestType: RequestType,
    request: ResourceRequest | DeleteRequest,
    context: ProviderContext,
    extra: { requestId: string; physicalId?: string; oldProperties?: JsonObject },
  ): Promise<HandlerAnswer> {
    const site = siteOf(request.logicalId, context);
    const serviceToken = request.properties.ServiceToken;
    const target = serviceTarget(request.logicalId, serviceToken);
    const transport = (this.deps.transport ?? ((clients) => awsTransport(clients, this.clock)))(
      context.clients,
    );
    const ports: DeliveryPorts = { transport, responses: site.responses, clock: this.clock };
    return deliver(
      {
        target,
        requestId: extra.requestId,
        request: {
          requestType,
          serviceToken: serviceToken as string,
          stackId: site.stackId,
          logicalId: request.logicalId,
          resourceType: request.type,
          properties: request.properties,
          ...(extra.physicalId !== undefined ? { physicalId: extra.physicalId } : {}),
          ...(extra.oldProperties ? { oldProperties: extra.oldProperties } : {}),
        },
        timeoutSeconds: Math.min(
          serviceTimeoutSeconds(request.logicalId, request.properties.ServiceTimeout),
          this.deps.timeoutCapSeconds ?? Number.POSITIVE_INFINITY,
        ),
        reinvocations: reinvocationBudget(this.deps.env),
        ...signalOf(site),
      },
      ports,
    );
  }
}

function siteOf(logicalId: string, context: ProviderContext): CustomResourceSite {
  if (context.customResources) return context.customResources;
  // The engine always supplies the site; a caller without a state bucket cannot take an answer.
  throw new Error(`${logicalId}: no state bucket to receive the custom resource's response`);
}

function signalOf(site: CustomResourceSite): { signal?: AbortSignal } {
  return site.signal ? { signal: site.signal } : {};
}

/** CloudFormation masks a `NoEcho: true` answer's Data everywhere but Fn::GetAtt. */
function noEchoOf(answer: { noEcho: boolean }): { noEcho?: true } {
  return answer.noEcho ? { noEcho: true } : {};
}

function handlerFailed(logicalId: string, requestType: RequestType, reason: string): CdkdError {
  return new CdkdError(
    'CUSTOM_RESOURCE_FAILED',
    `${logicalId}: the handler answered FAILED to the ${requestType} request: ${oneLine(reason)}`,
    {
      hint: "Read the handler's log (for a Lambda handler, the log group /aws/lambda/<function name>), fix the cause and deploy again.",
    },
  );
}

/**
 * A Reason on one line: the Provider framework appends the handler's stack trace and its log
 * group, separated by blank lines; the frames are dropped (the log holds them), the rest kept.
 */
function oneLine(reason: string): string {
  return reason
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^at .+/.test(line))
    .join('; ');
}

/** Runs a provider call whose every failure is final for the outer retry schedule. */
async function final<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw noOuterRetry(error);
  }
}

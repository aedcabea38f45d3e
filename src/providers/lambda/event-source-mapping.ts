import {
  CreateEventSourceMappingCommand,
  DeleteEventSourceMappingCommand,
  GetEventSourceMappingCommand,
  UpdateEventSourceMappingCommand,
  type EventSourceMappingConfiguration,
  type EventSourcePosition,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { systemClock, type Clock } from '../clock.js';
import type {
  CreateResult,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { boolean, integer, isNotFound, lambdaClient, string, sendDelete } from './common.js';
import { attributesFor } from './ref-attributes.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

const TYPE = 'AWS::Lambda::EventSourceMapping';
const COVERED = new Set([
  'FunctionName',
  'EventSourceArn',
  'BatchSize',
  'Enabled',
  'StartingPosition',
  'MaximumBatchingWindowInSeconds',
]);
const SETTLING = new Set(['Creating', 'Enabling', 'Disabling', 'Updating']);
const POLL_MS = 1_000;
const DEADLINE_MS = 5 * 60_000;

/**
 * AWS::Lambda::EventSourceMapping (the common subset; Kafka, filters, destinations ...
 * route to Cloud Control). A mapping settles through Creating / Updating; the provider
 * waits for Enabled or Disabled. Physical id and Ref: the UUID.
 */
export class LambdaEventSourceMappingProvider extends SdkProvider {
  readonly description: ProviderDescription = { type: TYPE, covered: COVERED };
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    super();
    this.clock = options.clock ?? systemClock;
  }

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const client = await lambdaClient(context);
    const p = request.properties;
    const created = await (
      await lambdaClient(context, SINGLE_ATTEMPT)
    ).send(
      new CreateEventSourceMappingCommand({
        ...mutable(p),
        EventSourceArn: string(p.EventSourceArn),
        StartingPosition: string(p.StartingPosition) as EventSourcePosition | undefined,
      }),
      { abortSignal: context.signal },
    );
    const settled = await this.settle(client, created.UUID!, context);
    return {
      physicalId: created.UUID!,
      attributes: attributesFor(TYPE, settled),
      creationIdentity: { UUID: created.UUID!, FunctionArn: created.FunctionArn ?? '' },
      observed: observedOf(settled),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await lambdaClient(context);
    await client.send(
      new UpdateEventSourceMappingCommand({ UUID: request.physicalId, ...mutable(request.properties) }),
      {
        abortSignal: context.signal,
      },
    );
    const settled = await this.settle(client, request.physicalId, context);
    return {
      physicalId: request.physicalId,
      attributes: attributesFor(TYPE, settled),
      observed: observedOf(settled),
    };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    await sendDelete(context, (client, options) =>
      client.send(new DeleteEventSourceMappingCommand({ UUID: request.physicalId }), options),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await lambdaClient(context);
    try {
      const mapping = await client.send(new GetEventSourceMappingCommand({ UUID: request.physicalId }), {
        abortSignal: context.signal,
      });
      return {
        properties: { FunctionName: request.properties.FunctionName, ...observedOf(mapping) },
        attributes: attributesFor(TYPE, mapping),
        creationIdentity: { UUID: mapping.UUID!, FunctionArn: mapping.FunctionArn ?? '' },
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * AWS behaviour it answers: Create/UpdateEventSourceMapping return the mapping
   * Creating/Updating, Lambda refuses the next update or delete of it with
   * ResourceInUseException until it leaves that state, and its State attribute is
   * final only then.
   */
  private async settle(
    client: LambdaClient,
    uuid: string,
    context: ProviderContext,
  ): Promise<EventSourceMappingConfiguration> {
    const deadline = this.clock.now() + DEADLINE_MS;
    for (;;) {
      const mapping = await client.send(new GetEventSourceMappingCommand({ UUID: uuid }), {
        abortSignal: context.signal,
      });
      if (!SETTLING.has(mapping.State ?? '')) return mapping;
      if (this.clock.now() + POLL_MS > deadline) {
        throw new Error(
          `Event source mapping ${uuid} is still ${mapping.State} after ${DEADLINE_MS / 60_000} minutes; check it in the Lambda console and deploy again.`,
        );
      }
      await this.clock.sleep(POLL_MS, context.signal);
    }
  }
}

/** The members both create and update take; `Enabled` defaults to true, as in CloudFormation. */
function mutable(p: JsonObject) {
  return {
    FunctionName: string(p.FunctionName),
    BatchSize: integer(p.BatchSize, 'BatchSize'),
    Enabled: boolean(p.Enabled) ?? true,
    MaximumBatchingWindowInSeconds: integer(
      p.MaximumBatchingWindowInSeconds,
      'MaximumBatchingWindowInSeconds',
    ),
  };
}

/** The mapping as the settle wait (which its attributes need) or GetEventSourceMapping answers it. */
function observedOf(mapping: EventSourceMappingConfiguration): JsonObject {
  return {
    EventSourceArn: mapping.EventSourceArn,
    BatchSize: mapping.BatchSize,
    Enabled: mapping.State !== 'Disabled' && mapping.State !== 'Disabling',
    ...(mapping.StartingPosition ? { StartingPosition: mapping.StartingPosition } : {}),
    ...(mapping.MaximumBatchingWindowInSeconds !== undefined
      ? { MaximumBatchingWindowInSeconds: mapping.MaximumBatchingWindowInSeconds }
      : {}),
  };
}

import {
  CreateEventBusCommand,
  DeleteEventBusCommand,
  DescribeEventBusCommand,
  UpdateEventBusCommand,
  type DescribeEventBusCommandOutput,
  type EventBridgeClient,
} from '@aws-sdk/client-eventbridge';
import { deleteTreatingNotFoundAsGone, errorCodeIn } from '../delete-gone.js';
import { awsErrorCode } from '../../aws/error-class.js';

import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../provider.js';
import { MadeByAttempts } from '../resource-made.js';
import { eventsClient, observedTags, retag } from './common.js';
import { textTags } from '../tags.js';
import { SINGLE_ATTEMPT } from '../../aws/client-factory.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const EVENT_BUS = 'AWS::Events::EventBus';

const COVERED = new Set([
  'Name',
  'Description',
  'KmsKeyIdentifier',
  'DeadLetterConfig',
  'EventSourceName',
  'Tags',
]);

/**
 * AWS::Events::EventBus. Physical id and Ref: the bus name (Name is required, never generated).
 * A create whose read-back fails after CreateEventBus reports the bus made (ResourceMadeError,
 * without creation identity: that read is what gives it).
 */
export class EventBusProvider extends SdkProvider {
  /** Policy (PutPermission) and LogConfig are not sent. */
  readonly description: ProviderDescription = { type: EVENT_BUS, covered: COVERED };
  /** Per idempotency token, the bus an attempt made before its read-back failed. */
  private readonly made = new MadeByAttempts();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const props = request.properties;
    const Name = String(props.Name);
    const client = await eventsClient(context);
    const token = request.idempotencyToken;
    // The retry of a create whose read-back failed takes back the bus it made.
    if (this.made.get(token)?.physicalId !== Name) {
      const tags = textTags(props.Tags);
      await (
        await eventsClient(context, SINGLE_ATTEMPT)
      ).send(
        new CreateEventBusCommand({
          Name,
          ...settings(props),
          ...(props.EventSourceName !== undefined ? { EventSourceName: String(props.EventSourceName) } : {}),
          ...(tags.length > 0 ? { Tags: tags } : {}),
        }),
        { abortSignal: context.signal },
      );
    }
    let bus: DescribeEventBusCommandOutput;
    try {
      bus = (await describe(client, Name)) ?? missingBus(Name);
    } catch (error) {
      throw this.made.failed(token, { physicalId: Name }, error);
    }
    this.made.forget(token);
    return {
      physicalId: Name,
      attributes: attributes(bus),
      creationIdentity: identityOf(bus),
      observed: observedOf(bus),
    };
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await eventsClient(context);
    const Name = request.physicalId;
    await client.send(new UpdateEventBusCommand({ Name, ...settings(request.properties) }), {
      abortSignal: context.signal,
    });
    const bus = (await describe(client, Name))!;
    await retag(client, bus.Arn!, request.previousProperties, request.properties, context);
    return { physicalId: Name, attributes: attributes(bus), observed: observedOf(bus) };
  }

  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await eventsClient(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteEventBusCommand({ Name: request.physicalId }), {
          abortSignal: context.signal,
        }),
      errorCodeIn('ResourceNotFoundException'),
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await eventsClient(context);
    const bus = await describe(client, request.physicalId);
    if (!bus) return undefined;
    return {
      properties: {
        ...observedOf(bus),
        ...(await observedTags(client, bus.Arn!)),
      },
      attributes: attributes(bus),
      creationIdentity: identityOf(bus),
    };
  }
}

function settings(props: JsonObject) {
  return {
    ...(props.Description !== undefined ? { Description: String(props.Description) } : {}),
    ...(props.KmsKeyIdentifier !== undefined ? { KmsKeyIdentifier: String(props.KmsKeyIdentifier) } : {}),
    ...(props.DeadLetterConfig !== undefined
      ? { DeadLetterConfig: props.DeadLetterConfig as { Arn?: string } }
      : {}),
  };
}

async function describe(
  client: EventBridgeClient,
  Name: string,
): Promise<DescribeEventBusCommandOutput | undefined> {
  try {
    return await client.send(new DescribeEventBusCommand({ Name }));
  } catch (error) {
    if (awsErrorCode(error) === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

function identityOf(bus: DescribeEventBusCommandOutput): CreationIdentity {
  return { Arn: bus.Arn!, creationTime: bus.CreationTime?.getTime() ?? 0 };
}

function missingBus(Name: string): never {
  const error = new Error(`Event bus ${Name} does not exist.`);
  error.name = 'ResourceNotFoundException';
  throw error;
}

/** GetAtt Arn and Name from DescribeEventBus (Policy is never set by this provider). */
function attributes(bus: DescribeEventBusCommandOutput): JsonObject {
  return { Arn: bus.Arn, Name: bus.Name };
}

/** The bus as the write's own DescribeEventBus (which its attributes need) shows it; tags are another call. */
function observedOf(bus: DescribeEventBusCommandOutput): JsonObject {
  return {
    Name: bus.Name,
    ...(bus.Description !== undefined ? { Description: bus.Description } : {}),
    ...(bus.KmsKeyIdentifier !== undefined ? { KmsKeyIdentifier: bus.KmsKeyIdentifier } : {}),
    ...(bus.DeadLetterConfig !== undefined ? { DeadLetterConfig: bus.DeadLetterConfig } : {}),
  };
}

import {
  eventBus,
  lambdaInvoker,
  logWriter,
  snsPublisher,
  sqsSender,
  stateMachineStarter,
  type DeliveryCaller,
  type DeliveryOutcome,
  type EventEntry,
} from '../ports/index.js';
import type { SandboxContext } from '../service-module.js';

export interface SendOptions {
  /** An SQS FIFO target's message group. */
  groupId?: string;
  /** The event a bus target is put; by default the input read as an event sent on (its source, detail-type, detail). */
  busEntry?: EventEntry;
  /** Who delivers, for the error an unserved target gets ("EventBridge", "EventBridge Scheduler"). */
  sender: string;
}

/**
 * Sends one input to the target its ARN names (Lambda as an Event invocation, SQS, SNS, Step
 * Functions, an EventBridge bus, a log group) as `caller`: what EventBridge rules and
 * EventBridge Scheduler both deliver to.
 */
export async function sendToTarget(
  context: SandboxContext,
  arn: string,
  input: string,
  caller: DeliveryCaller,
  options: SendOptions,
): Promise<DeliveryOutcome> {
  const service = arn.split(':')[2] ?? '';
  const unserved = (): DeliveryOutcome => ({
    delivered: false,
    code: 'UnsupportedTarget',
    message: `the cdkd sandbox does not deliver ${options.sender} events to ${service} targets`,
  });
  switch (service) {
    case 'lambda':
      return (await lambdaInvoker.of(context)?.invokeAsync(arn, input, caller)) ?? unserved();
    case 'sqs':
      return (
        (await sqsSender.of(context)?.send(arn, input, {
          caller,
          ...(options.groupId ? { groupId: options.groupId } : {}),
        })) ?? unserved()
      );
    case 'sns':
      return (await snsPublisher.of(context)?.publish(arn, input, undefined, caller)) ?? unserved();
    case 'states':
      return (await stateMachineStarter.of(context)?.start(arn, input, caller)) ?? unserved();
    case 'events':
      return (
        (await eventBus.of(context)?.put(arn, [options.busEntry ?? forwarded(input)], caller)) ?? unserved()
      );
    case 'logs':
      return (await toLogGroup(context, arn, input)) ?? unserved();
    default:
      return unserved();
  }
}

/** An event sent on to another bus keeps its source, detail-type and detail. */
function forwarded(input: string): EventEntry {
  const event = JSON.parse(input) as Record<string, unknown>;
  return {
    Source: String(event.source ?? ''),
    DetailType: String(event['detail-type'] ?? ''),
    Detail: JSON.stringify(event.detail ?? {}),
    ...(Array.isArray(event.resources) ? { Resources: event.resources as string[] } : {}),
  };
}

async function toLogGroup(
  context: SandboxContext,
  arn: string,
  input: string,
): Promise<DeliveryOutcome | undefined> {
  const [, , , region = context.region, , , group = ''] = arn.split(':');
  const writer = logWriter.of(context);
  if (!writer) return undefined;
  const event = JSON.parse(input) as { id?: string };
  await writer.append(region, group, String(event.id ?? 'events'), [
    { timestamp: context.clock.now(), message: input },
  ]);
  return { delivered: true };
}

import { roleCaller, serviceCaller, type DeliveryOutcome } from '../../ports/delivery.js';
import {
  eventBus,
  lambdaInvoker,
  roleReader,
  snsPublisher,
  sqsSender,
  stateMachineStarter,
  type DeliveryCaller,
} from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import { logWriter } from '../logs/log-writer.js';
import { retrying, settled, type RetryPolicy, type RetryResult } from './retries.js';
import { targetInput, type InputSettings } from './target-input.js';

export interface Target extends InputSettings {
  Id: string;
  Arn: string;
  RoleArn?: string;
  SqsParameters?: { MessageGroupId?: string };
  RetryPolicy?: { MaximumRetryAttempts?: number; MaximumEventAgeInSeconds?: number };
  DeadLetterConfig?: { Arn?: string };
}

export interface RuleRef {
  arn: string;
  name: string;
  account: string;
}

/** Targets reached as a role the rule's target names, not through a resource policy. */
const ROLE_TARGETS = new Set(['states', 'events', 'kinesis']);

/**
 * Sends one matched event to one target: its input as the target's settings make it, to
 * the service its ARN names, as EventBridge (`events.amazonaws.com` for the rule) or as the
 * target's role. A failure the target may recover from is retried in the background (added
 * to `background`) on the sandbox's clock under the target's retry policy; what cannot be
 * delivered goes to its dead-letter queue.
 */
export async function deliverToTarget(
  context: SandboxContext,
  rule: RuleRef,
  target: Target,
  event: Record<string, unknown>,
  background: Set<Promise<unknown>>,
): Promise<void> {
  const input = targetInput(target, event, rule);
  const policy: RetryPolicy = {
    maxAttempts: (target.RetryPolicy?.MaximumRetryAttempts ?? 185) + 1,
    maxAgeMs: (target.RetryPolicy?.MaximumEventAgeInSeconds ?? 86_400) * 1000,
  };
  const startedAt = context.clock.now();
  const first = await send(context, rule, target, input);
  const done = settled(first, 1);
  if (done) return toDeadLetterQueue(context, rule, target, event, done);
  const retries = retrying(context.clock, policy, first, startedAt, () =>
    send(context, rule, target, input),
  ).then((result) => toDeadLetterQueue(context, rule, target, event, result));
  background.add(retries);
  void retries.finally(() => background.delete(retries));
}

async function toDeadLetterQueue(
  context: SandboxContext,
  rule: RuleRef,
  target: Target,
  event: Record<string, unknown>,
  final: RetryResult,
): Promise<void> {
  if (final.outcome.delivered || !target.DeadLetterConfig?.Arn) return;
  await sqsSender.of(context)?.send(target.DeadLetterConfig.Arn, JSON.stringify(event), {
    caller: serviceCaller('events', rule.arn, rule.account),
    attributes: {
      RULE_ARN: { DataType: 'String', StringValue: rule.arn },
      TARGET_ARN: { DataType: 'String', StringValue: target.Arn },
      ERROR_CODE: { DataType: 'String', StringValue: final.outcome.code },
      ERROR_MESSAGE: { DataType: 'String', StringValue: final.outcome.message },
      EXHAUSTED_RETRY_CONDITION: { DataType: 'String', StringValue: final.condition },
      RETRY_ATTEMPTS: { DataType: 'Number', StringValue: String(final.attempts - 1) },
    },
  });
}

async function send(
  context: SandboxContext,
  rule: RuleRef,
  target: Target,
  input: string,
): Promise<DeliveryOutcome> {
  const service = target.Arn.split(':')[2] ?? '';
  const caller = callerFor(context, rule, target, service);
  if ('code' in caller) return caller;
  switch (service) {
    case 'lambda':
      return (await lambdaInvoker.of(context)?.invokeAsync(target.Arn, input, caller)) ?? unserved(service);
    case 'sqs':
      return (
        (await sqsSender.of(context)?.send(target.Arn, input, {
          caller,
          ...(target.SqsParameters?.MessageGroupId ? { groupId: target.SqsParameters.MessageGroupId } : {}),
        })) ?? unserved(service)
      );
    case 'sns':
      return (
        (await snsPublisher.of(context)?.publish(target.Arn, input, undefined, caller)) ?? unserved(service)
      );
    case 'states':
      return (await stateMachineStarter.of(context)?.start(target.Arn, input, caller)) ?? unserved(service);
    case 'events':
      return (await eventBus.of(context)?.put(target.Arn, [forwarded(input)], caller)) ?? unserved(service);
    case 'logs':
      return toLogGroup(context, target.Arn, input);
    default:
      return unserved(service);
  }
}

/** A Lambda, SQS or SNS target is reached as EventBridge; the others as the target's role. */
function callerFor(
  context: SandboxContext,
  rule: RuleRef,
  target: Target,
  service: string,
): DeliveryCaller | { delivered: false; code: string; message: string } {
  if (!ROLE_TARGETS.has(service)) return serviceCaller('events', rule.arn, rule.account);
  const roles = roleReader.of(context);
  if (!target.RoleArn || !roles?.assumableBy(target.RoleArn, 'events.amazonaws.com')) {
    return {
      delivered: false,
      code: 'AccessDenied',
      message: `EventBridge cannot assume the role ${target.RoleArn ?? '(none)'} for the target ${target.Arn}`,
    };
  }
  return roleCaller('events', rule.arn, target.RoleArn, roles.identityPolicies(target.RoleArn));
}

/** An event sent on to another bus keeps its source, detail-type and detail. */
function forwarded(input: string): {
  Source: string;
  DetailType: string;
  Detail: string;
  Resources?: string[];
} {
  const event = JSON.parse(input) as Record<string, unknown>;
  return {
    Source: String(event.source ?? ''),
    DetailType: String(event['detail-type'] ?? ''),
    Detail: JSON.stringify(event.detail ?? {}),
    ...(Array.isArray(event.resources) ? { Resources: event.resources as string[] } : {}),
  };
}

async function toLogGroup(context: SandboxContext, arn: string, input: string): Promise<DeliveryOutcome> {
  const [, , , region = context.region, , , group = ''] = arn.split(':');
  const writer = logWriter(context);
  if (!writer) return unserved('logs');
  const event = JSON.parse(input) as { id?: string };
  await writer.append(region, group, String(event.id ?? 'events'), [
    { timestamp: context.clock.now(), message: input },
  ]);
  return { delivered: true };
}

function unserved(service: string): DeliveryOutcome {
  return {
    delivered: false,
    code: 'UnsupportedTarget',
    message: `the cdkd sandbox does not deliver EventBridge events to ${service} targets`,
  };
}

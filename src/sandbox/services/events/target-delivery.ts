import { roleCaller, serviceCaller, type DeliveryOutcome } from '../../ports/delivery.js';
import { retrying, settled, type RetryPolicy, type RetryResult } from '../../delivery/retries.js';
import { sendToTarget } from '../../delivery/target-send.js';
import { roleReader, sqsSender, type DeliveryCaller } from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
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

function send(
  context: SandboxContext,
  rule: RuleRef,
  target: Target,
  input: string,
): Promise<DeliveryOutcome> {
  const caller = callerFor(context, rule, target, target.Arn.split(':')[2] ?? '');
  if ('code' in caller) return Promise.resolve(caller);
  return sendToTarget(context, target.Arn, input, caller, {
    sender: 'EventBridge',
    ...(target.SqsParameters?.MessageGroupId ? { groupId: target.SqsParameters.MessageGroupId } : {}),
  });
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

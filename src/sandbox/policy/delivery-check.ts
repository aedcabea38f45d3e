import type { SandboxContext } from '../service-module.js';
import { DELIVERED, notDelivered, type DeliveryCaller, type DeliveryOutcome } from '../ports/delivery.js';
import { evaluateAccess } from './evaluate.js';

export interface DeliveryTarget {
  arn: string;
  /** The action as policies name it (`sqs:SendMessage`). */
  action: string;
  /** The target's resource policy (document or JSON text); undefined when it has none. */
  policy: unknown;
  /** False when the target is gone: the delivery fails as AWS's does (and is logged). */
  exists: boolean;
}

/**
 * A delivery from another service: checked against the target's policies (when it has a
 * caller), sent by `send` when allowed, and recorded in the call log.
 */
export async function deliverChecked(
  context: SandboxContext,
  caller: DeliveryCaller | undefined,
  target: DeliveryTarget,
  send: () => Promise<void>,
): Promise<DeliveryOutcome> {
  const outcome = target.exists
    ? checkDelivery(context, caller, target)
    : notDelivered('ResourceNotFoundException', `${target.arn} does not exist`);
  if (outcome.delivered) await send();
  logDelivery(context, caller, target, outcome);
  return outcome;
}

/**
 * The receiver's check of a delivery from another service (none when `caller` is undefined:
 * the sandbox's own trusted paths), recorded in the call log either way. A refusal answers
 * AccessDenied, as the receiving service would.
 */
function checkDelivery(
  context: SandboxContext,
  caller: DeliveryCaller | undefined,
  target: DeliveryTarget,
): DeliveryOutcome {
  if (!caller) return DELIVERED;
  const targetAccount = target.arn.split(':')[4] ?? '';
  const decision = evaluateAccess(
    { principal: caller.principal, action: target.action, resource: target.arn, context: caller.context },
    {
      ...(caller.identityPolicies ? { identity: caller.identityPolicies } : {}),
      resource: target.policy,
      sameAccount: 'account' in caller.principal && caller.principal.account === targetAccount,
    },
  );
  if (decision === 'allow') return DELIVERED;
  const who = 'service' in caller.principal ? caller.principal.service : caller.principal.arn;
  const why =
    decision === 'deny'
      ? `an explicit deny in a policy refuses ${who} ${target.action} on ${target.arn}`
      : `no policy allows ${who} ${target.action} on ${target.arn}`;
  return notDelivered('AccessDenied', `${why} (from ${caller.source})`);
}

/** Records a delivery's outcome in the call log. */
function logDelivery(
  context: SandboxContext,
  caller: DeliveryCaller | undefined,
  target: { arn: string; action: string },
  outcome: DeliveryOutcome,
): void {
  if (!caller) return;
  context.deliveries.record({
    time: context.clock.iso(),
    from: caller.from,
    source: caller.source,
    target: target.arn,
    action: target.action,
    outcome: outcome.delivered ? 'delivered' : outcome.code === 'AccessDenied' ? 'denied' : 'failed',
    ...(outcome.delivered ? {} : { reason: `${outcome.code}: ${outcome.message}` }),
  });
}

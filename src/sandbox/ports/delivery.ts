import type { PolicyPrincipal } from '../policy/evaluate.js';

/**
 * Who a delivery between services comes from, for the receiver's policy check: an AWS
 * service acting for one of its resources (SNS for a topic, S3 for a bucket, EventBridge for
 * a rule), which the receiver's resource policy must allow; or a role a service assumed
 * (Scheduler, EventBridge's role targets), whose own policies travel with it.
 */
export interface DeliveryCaller {
  /** The delivering service's signing name, for the call log (`sns`, `s3`, `events`, `scheduler`). */
  from: string;
  /** The resource that sent it (topic, bucket, rule, schedule ARN). */
  source: string;
  principal: PolicyPrincipal;
  /** Condition keys (`aws:SourceArn`, `aws:SourceAccount`). */
  context: Record<string, string>;
  /** The assumed role's identity policies, for a role caller. */
  identityPolicies?: readonly unknown[];
}

/** What a delivery came to: accepted, or refused with AWS's error code and message. */
export type DeliveryOutcome = { delivered: true } | { delivered: false; code: string; message: string };

export const DELIVERED: DeliveryOutcome = { delivered: true };

export function notDelivered(code: string, message: string): DeliveryOutcome {
  return { delivered: false, code, message };
}

/** A service delivering for one of its resources (`sns.amazonaws.com` for a topic ...). */
export function serviceCaller(from: string, sourceArn: string, sourceAccount: string): DeliveryCaller {
  return {
    from,
    source: sourceArn,
    principal: { service: `${from}.amazonaws.com` },
    context: {
      'aws:SourceArn': sourceArn,
      'aws:SourceAccount': sourceAccount,
      'aws:SourceOwner': sourceAccount,
    },
  };
}

/** A service acting as a role it assumed, with the role's identity policies. */
export function roleCaller(
  from: string,
  sourceArn: string,
  roleArn: string,
  identityPolicies: readonly unknown[],
): DeliveryCaller {
  const account = roleArn.split(':')[4] ?? '';
  return {
    from,
    source: sourceArn,
    principal: { arn: roleArn, account },
    context: { 'aws:SourceArn': sourceArn, 'aws:SourceAccount': account },
    identityPolicies,
  };
}

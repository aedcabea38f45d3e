import type { DeployEvent } from '../../messages/index.js';

type NotifiedEvent = Extract<DeployEvent, { kind: 'resource' } | { kind: 'stack' }>;

const ACTION_PREFIX: Partial<Record<Extract<DeployEvent, { kind: 'resource' }>['action'], string>> = {
  create: 'CREATE',
  update: 'UPDATE',
  // CloudFormation reports a replacement as an update of the resource.
  replace: 'UPDATE',
  delete: 'DELETE',
};

const RESOURCE_SUFFIX = { started: 'IN_PROGRESS', succeeded: 'COMPLETE', failed: 'FAILED' } as const;

/**
 * The `ResourceStatus` CloudFormation would send to a stack's notification topics for one of
 * cdkd's deploy events, or undefined where it sends none (a no-op, a skipped step, a deploy
 * with no changes). A failed deploy's stack ends as CloudFormation's does after the rollback
 * cdkd ran, or as `*_FAILED` under `--no-rollback`.
 */
export function cloudFormationStatus(
  event: NotifiedEvent,
  stack: { firstDeploy: boolean; rollback: boolean },
): string | undefined {
  if (event.kind === 'resource') {
    if (event.action === 'retain') return event.status === 'succeeded' ? 'DELETE_SKIPPED' : undefined;
    const prefix = ACTION_PREFIX[event.action];
    return prefix && event.status !== 'skipped' ? `${prefix}_${RESOURCE_SUFFIX[event.status]}` : undefined;
  }
  const prefix = stack.firstDeploy ? 'CREATE' : 'UPDATE';
  switch (event.status) {
    case 'started':
      return `${prefix}_IN_PROGRESS`;
    case 'succeeded':
      return `${prefix}_COMPLETE`;
    case 'failed':
      if (!stack.rollback) return `${prefix}_FAILED`;
      return stack.firstDeploy ? 'ROLLBACK_COMPLETE' : 'UPDATE_ROLLBACK_COMPLETE';
    case 'no-changes':
      return undefined;
  }
}

/** Where and when an event happened, for its notification. */
export interface NotificationContext {
  accountId: string;
  region: string;
  eventId: string;
  timestamp: Date;
}

/**
 * The message body CloudFormation publishes for a stack event: one `Key='value'` line per
 * field, in its order. cdkd's stacks have no CloudFormation stack id; the StackId names the
 * stack under `cdkd` where CloudFormation puts a generated id.
 */
export function notificationMessage(
  event: NotifiedEvent,
  status: string,
  context: NotificationContext,
): string {
  const stackId = `arn:aws:cloudformation:${context.region}:${context.accountId}:stack/${event.stack}/cdkd`;
  const resource =
    event.kind === 'resource'
      ? { logicalId: event.logicalId, physicalId: event.physicalId ?? '', type: event.type }
      : { logicalId: event.stack, physicalId: stackId, type: 'AWS::CloudFormation::Stack' };
  const reason =
    event.status === 'failed'
      ? (event.message ?? '')
      : event.kind === 'stack' && event.status === 'started'
        ? 'User Initiated'
        : '';
  const fields: Array<[string, string]> = [
    ['StackId', stackId],
    ['Timestamp', context.timestamp.toISOString()],
    ['EventId', context.eventId],
    ['LogicalResourceId', resource.logicalId],
    ['Namespace', context.accountId],
    ['PhysicalResourceId', resource.physicalId],
    ['ResourceStatus', status],
    ['ResourceStatusReason', reason],
    ['ResourceType', resource.type],
    ['StackName', event.stack],
    ['ClientRequestToken', 'null'],
  ];
  return `${fields.map(([key, value]) => `${key}='${value}'`).join('\n')}\n`;
}

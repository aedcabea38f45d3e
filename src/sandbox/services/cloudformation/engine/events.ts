import { randomUUID } from 'node:crypto';
import type { StackStore } from '../model/store.js';
import type { StackEvent, StackRecord, StackResourceRecord } from '../model/types.js';

/** Writes stack events as CloudFormation does: one per status a stack or resource enters. */
export class EventWriter {
  /** The last event time per stack: each event is later than the one before (clients order by time). */
  private readonly last = new Map<string, number>();

  constructor(private readonly store: StackStore) {}

  stack(stack: StackRecord, reason?: string): Promise<void> {
    return this.write(stack, {
      logicalId: stack.stackName,
      physicalId: stack.stackId,
      type: 'AWS::CloudFormation::Stack',
      status: stack.status,
      ...(reason !== undefined ? { reason } : {}),
    });
  }

  resource(
    stack: StackRecord,
    resource: Pick<StackResourceRecord, 'logicalId' | 'type' | 'physicalId' | 'status' | 'statusReason'>,
    properties?: Record<string, unknown>,
  ): Promise<void> {
    return this.write(stack, {
      logicalId: resource.logicalId,
      physicalId: resource.physicalId ?? '',
      type: resource.type,
      status: resource.status,
      ...(resource.statusReason !== undefined ? { reason: resource.statusReason } : {}),
      ...(properties !== undefined ? { properties: JSON.stringify(properties) } : {}),
    });
  }

  private write(
    stack: StackRecord,
    fields: Pick<StackEvent, 'logicalId' | 'physicalId' | 'type' | 'status' | 'reason' | 'properties'>,
  ): Promise<void> {
    const time = Math.max(Date.now(), (this.last.get(stack.stackId) ?? 0) + 1);
    this.last.set(stack.stackId, time);
    const timestamp = new Date(time).toISOString();
    return this.store.addEvent({
      eventId: `${fields.logicalId}-${fields.status}-${timestamp}-${randomUUID().slice(0, 8)}`,
      stackId: stack.stackId,
      stackName: stack.stackName,
      timestamp,
      ...fields,
    });
  }
}

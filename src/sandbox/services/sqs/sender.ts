import type { SandboxContext } from '../../service-module.js';

/**
 * Messages other sandbox modules deliver to queues (SNS subscriptions, S3 event
 * notifications), so they never reach into SQS's store. A queue that is gone drops the
 * message, as AWS's delivery drops it.
 */
export interface SqsSender {
  /** Enqueues `body` on the queue with this ARN; `groupId` for a FIFO queue. */
  send(queueArn: string, body: string, groupId?: string): Promise<void>;
}

const senders = new WeakMap<SandboxContext, SqsSender>();

/** The sender of the sandbox the context belongs to; undefined when SQS is not served. */
export function sqsSender(context: SandboxContext): SqsSender | undefined {
  return senders.get(context);
}

export function exposeSqsSender(context: SandboxContext, sender: SqsSender): void {
  senders.set(context, sender);
}

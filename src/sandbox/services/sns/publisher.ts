import type { SandboxContext } from '../../service-module.js';

/**
 * Publishing for other sandbox modules (S3 event notifications to a topic), so they never
 * reach into SNS's store. A topic that is gone drops the message.
 */
export interface SnsPublisher {
  publish(topicArn: string, message: string, subject: string): Promise<void>;
}

const publishers = new WeakMap<SandboxContext, SnsPublisher>();

/** The publisher of the sandbox the context belongs to; undefined when SNS is not served. */
export function snsPublisher(context: SandboxContext): SnsPublisher | undefined {
  return publishers.get(context);
}

export function exposeSnsPublisher(context: SandboxContext, publisher: SnsPublisher): void {
  publishers.set(context, publisher);
}

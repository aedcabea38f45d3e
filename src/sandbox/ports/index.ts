import { definePort } from './port.js';

export type { Port } from './port.js';

/**
 * Event invocations for other modules (SNS subscribers, S3 notifications). Unknown functions
 * are dropped, as Lambda's async delivery drops events for a function that is gone.
 */
export interface LambdaInvoker {
  /** Accepts an Event invocation of the function (ARN, qualified or not) with a JSON payload. */
  invokeAsync(functionArn: string, payload: string): Promise<void>;
}

/** Messages delivered to queues (SNS subscriptions, S3 notifications). A queue that is gone drops the message, as AWS's delivery does. */
export interface SqsSender {
  /** Enqueues `body` on the queue with this ARN; `groupId` for a FIFO queue. */
  send(queueArn: string, body: string, groupId?: string): Promise<void>;
}

/** Publishing for other modules (S3 notifications to a topic). A topic that is gone drops the message. */
export interface SnsPublisher {
  publish(topicArn: string, message: string, subject: string): Promise<void>;
}

/** Why an object could not be read, in S3's own error codes (Lambda quotes them). */
export type S3ReadFailure = 'NoSuchBucket' | 'NoSuchKey' | 'NoSuchVersion';

/**
 * Object bodies for other modules: Lambda reads deployment packages, CloudFormation reads
 * templates and the answers custom resources PUT to their ResponseURL (and removes an answer
 * once read).
 */
export interface S3ObjectReader {
  read(bucket: string, key: string, versionId?: string): Promise<Buffer | S3ReadFailure>;
  /** Removes every version of the key; nothing when the bucket or key is gone. */
  remove(bucket: string, key: string): Promise<void>;
}

export const lambdaInvoker = definePort<LambdaInvoker>();
export const sqsSender = definePort<SqsSender>();
export const snsPublisher = definePort<SnsPublisher>();
export const s3ObjectReader = definePort<S3ObjectReader>();

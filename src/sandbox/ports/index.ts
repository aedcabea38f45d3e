import type { DeliveryCaller, DeliveryOutcome } from './delivery.js';
import { definePort } from './port.js';

export type { Port } from './port.js';
export type { DeliveryCaller, DeliveryOutcome } from './delivery.js';

/**
 * Invocations for other modules. A `caller` (SNS, S3, EventBridge ...) is checked against
 * the function's resource policy, and the delivery logged; without one the invocation is the
 * sandbox's own (an event source mapping's poller). A function that is gone is not delivered to.
 */
export interface LambdaInvoker {
  /** Accepts an Event invocation of the function (ARN, qualified or not) with a JSON payload. */
  invokeAsync(functionArn: string, payload: string, caller?: DeliveryCaller): Promise<DeliveryOutcome>;
  /** Runs a RequestResponse invocation and answers what the handler returned. */
  invoke(functionArn: string, payload: string, caller?: DeliveryCaller): Promise<LambdaResult>;
}

/** What a RequestResponse invocation answered; `functionError` set when the handler failed. */
export type LambdaResult =
  | { delivered: true; payload: string; functionError?: string; executedVersion: string }
  | { delivered: false; code: string; message: string };

export interface SqsSendOptions {
  /** A FIFO queue's message group. */
  groupId?: string;
  /** Checked against the queue's policy. */
  caller?: DeliveryCaller;
  /** Message attributes, as SendMessage takes them. */
  attributes?: Record<string, { DataType: string; StringValue?: string }>;
}

/** Messages delivered to queues (SNS subscriptions, S3 notifications, EventBridge targets). */
export interface SqsSender {
  /** Enqueues `body` on the queue with this ARN (gone: not delivered, as AWS's delivery). */
  send(
    queueArn: string,
    body: string,
    options?: SqsSendOptions,
  ): Promise<DeliveryOutcome & { messageId?: string }>;
}

/** Publishing for other modules (S3 notifications, EventBridge targets), checked against the topic policy. */
export interface SnsPublisher {
  publish(
    topicArn: string,
    message: string,
    subject: string | undefined,
    caller?: DeliveryCaller,
  ): Promise<DeliveryOutcome>;
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

/** A synchronous invocation's answer: the handler's result, or Lambda's error payload for it. */
export interface LambdaInvocationResult {
  payload: string;
  /** `Unhandled` when the handler failed (the payload is then its error). */
  functionError?: string;
}

/**
 * RequestResponse invocations for modules that wait for the answer (API Gateway's
 * integrations and authorizers). Rejects with Lambda's error (a SandboxError) when the
 * function does not exist or cannot run here.
 */
export interface LambdaSyncInvoker {
  invoke(functionArn: string, payload: string): Promise<LambdaInvocationResult>;
}

export const lambdaSyncInvoker = definePort<LambdaSyncInvoker>();
/** What another module needs of a role a service assumes (Scheduler, EventBridge role targets). */
export interface RoleReader {
  /** Whether this sandbox's IAM holds the role (one made outside it is not). */
  holds(roleArn: string): boolean;
  /** Whether the role exists, has propagated by `now` (epoch ms) and its trust policy lets the service principal assume it. */
  assumableBy(roleArn: string, servicePrincipal: string, now?: number): boolean;
  /** The role's identity policies: inline, then attached managed ones (their default versions). */
  identityPolicies(roleArn: string): unknown[];
  /** The document of the role's permissions boundary; undefined when it has none. */
  permissionsBoundary(roleArn: string): unknown;
}

export const roleReader = definePort<RoleReader>();

/** A role session STS AssumeRole issued: who the credentials act as. */
export interface AssumedSession {
  roleArn: string;
  roleId: string;
  sessionName: string;
  /** The role's account, which the credentials act in. */
  account: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** Credentials as a function's environment carries them. */
export interface SessionCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** The sessions STS issued, found by the session token a request was signed with. */
export interface RoleSessions {
  find(sessionToken: string): AssumedSession | undefined;
  /**
   * A session of `roleArn` a service opens on its own behalf (Lambda runs a function as its
   * execution role); undefined when the sandbox holds no such role.
   */
  open(roleArn: string, sessionName: string, region: string): SessionCredentials | undefined;
}

export const roleSessions = definePort<RoleSessions>();

/**
 * Appends log events for other modules (Lambda writes what a function prints), creating the
 * group and stream when missing, as the Lambda service does.
 */
export interface LogWriter {
  append(
    region: string,
    group: string,
    stream: string,
    events: Array<{ timestamp: number; message: string }>,
  ): Promise<void>;
}

export const logWriter = definePort<LogWriter>();

/** One event as PutEvents takes it. */
export interface EventEntry {
  Source: string;
  DetailType: string;
  /** JSON text of an object. */
  Detail: string;
  Resources?: string[];
  /** Epoch ms; the sandbox's time when absent. */
  Time?: number;
}

/**
 * Putting events on a bus for other modules (S3's EventBridge notifications, Scheduler,
 * EventBridge targets that are buses). A caller is checked against the bus policy and its
 * role's policies.
 */
export interface EventBus {
  put(busArn: string, entries: EventEntry[], caller?: DeliveryCaller): Promise<DeliveryOutcome>;
}

export const eventBus = definePort<EventBus>();

/** Starting executions for other modules (EventBridge and Scheduler targets). */
export interface StateMachineStarter {
  start(
    stateMachineArn: string,
    input: string,
    caller?: DeliveryCaller,
  ): Promise<DeliveryOutcome & { executionArn?: string }>;
}

export const stateMachineStarter = definePort<StateMachineStarter>();

/** A message as a consumer in another module receives it (Lambda's SQS event source). */
export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  md5OfBody: string;
  /** System attributes (ApproximateReceiveCount, SentTimestamp ...). */
  attributes: Record<string, string>;
  messageAttributes: Record<string, { DataType: string; StringValue?: string; BinaryValue?: string }>;
}

/** Receiving from queues for other modules, as SQS's API would (visibility, redrive, FIFO groups). */
export interface SqsConsumer {
  /** Up to `max` visible messages, hidden for the queue's visibility timeout; undefined when the queue is gone. */
  receive(queueArn: string, max: number): Promise<ReceivedMessage[] | undefined>;
  /** How many messages are visible now (a batching window waits for more). */
  visibleCount(queueArn: string): number;
  delete(queueArn: string, receiptHandles: readonly string[]): Promise<void>;
  /** The queue's attributes (VisibilityTimeout, FifoQueue ...), or undefined when it is gone. */
  attributes(queueArn: string): Record<string, string> | undefined;
}

export const sqsConsumer = definePort<SqsConsumer>();

/** One record of a stream (DynamoDB Streams, Kinesis) as an event source reads it. */
export interface StreamRecordEntry {
  /** Decimal digits; a later record has a larger number. */
  sequenceNumber: string;
  /** Epoch ms (sandbox time) it was written. */
  arrivedAt: number;
  shardId: string;
  /** The record as Lambda's event carries it, less `eventSourceARN`. */
  record: Record<string, unknown>;
}

/** Reading a stream for another module (Lambda's event source mappings). */
export interface StreamReader {
  /** Up to `limit` records after the sequence number `after` (from the oldest when undefined); undefined when the stream is gone. */
  read(streamArn: string, after: string | undefined, limit: number): StreamRecordEntry[] | undefined;
  /** The latest sequence number written ('0' when none yet); undefined when the stream is gone. */
  latest(streamArn: string): string | undefined;
}

export const dynamoDbStreams = definePort<StreamReader>();
export const kinesisStreams = definePort<StreamReader>();

/** DynamoDB's API for other modules (Step Functions' optimized integrations): the output, or the error DynamoDB answered. */
export interface DynamoDbCaller {
  call(
    region: string,
    operation: string,
    input: Record<string, unknown>,
  ): Promise<{ output: Record<string, unknown> } | { code: string; message: string }>;
}

export const dynamoDbCaller = definePort<DynamoDbCaller>();

/** What an image's config says to run (the `config` section of the OCI / Docker image config). */
export interface ImageRunConfig {
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  Env?: string[];
}

/** An image in the sandbox's registry, as Lambda resolves an ImageUri to it. */
export interface EcrImage {
  region: string;
  repository: string;
  /** The manifest digest the URI resolved to (`sha256:…`): what Lambda pins the function to. */
  digest: string;
  /** The config and layers' sizes. */
  sizeInBytes: number;
  /** The image config of the platform's image (an index is resolved to the manifest for it). */
  config: ImageRunConfig;
}

/** Why an ImageUri names no image: not an ECR image URI at all, or nothing there. */
export type EcrImageFailure = 'invalid' | 'not-found';

/** Images for other modules (Lambda's image functions), read-only. */
export interface EcrImageReader {
  /**
   * The image `{account}.dkr.ecr.{region}.amazonaws.com/{repository}:{tag}` (or `@{digest}`)
   * names, for `architecture` (`amd64`, `arm64`) where it names an index.
   */
  resolve(imageUri: string, architecture: string): Promise<EcrImage | EcrImageFailure>;
  /** Basic credentials (`AWS` and a password) the registry accepts for `region`, as GetAuthorizationToken gives. */
  pullCredentials(accountId: string, region: string): { username: string; password: string };
}

export const ecrImages = definePort<EcrImageReader>();

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

/** Read-only object bodies for other modules (Lambda reads deployment packages). */
export interface S3ObjectReader {
  read(bucket: string, key: string, versionId?: string): Promise<Buffer | S3ReadFailure>;
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

import type { SandboxError } from './errors.js';
import type { Ingress } from './ingress.js';
import type { SandboxRequest, SandboxResponse } from './request.js';
import type { DeliveryLog } from './admin/deliveries.js';
import type { LatencyModel } from './admin/latency.js';
import type { SandboxClock } from './clock/clock.js';
import type { ResourceHandlers } from './resources.js';
import type { Storage } from './storage/storage.js';

/** The wire protocols AWS services speak. */
export type Protocol = 'rest-xml' | 'query' | 'json' | 'rest-json';

/** Renders what a protocol needs beyond a handler's result: errors and request-id headers. */
export interface Codec {
  readonly protocol: Protocol;
  renderError(error: SandboxError, request: SandboxRequest): SandboxResponse;
  newRequestId(): string;
  requestIdHeaders(requestId: string): Record<string, string>;
}

/** What every service module is given when the sandbox starts. */
export interface SandboxContext {
  /** The sandbox's own account: what a request acts in unless its key selects another (`request.accountId`). */
  accountId: string;
  /** The sandbox's home region (the default when a request names none). */
  region: string;
  /** Persistence: files under the data dir, or memory. Namespaced per service. */
  storage: Storage;
  /** The data dir (absolute) when state persists, for emulators that keep their own files (dynalite). */
  dataDir?: string;
  /** The latency model set through the admin API (per resource type, per operation). */
  latency: LatencyModel;
  /** Bucket names that exist but belong to another account (S3 BucketAlreadyExists). */
  foreignBuckets: ReadonlySet<string>;
  /** Per-type resource handlers modules register for Cloud Control (see resources.ts). */
  resources: ResourceHandlers;
  /** The sandbox's time, which the admin API moves: every service reads "now" here. */
  clock: SandboxClock;
  /** Deliveries between services (allowed, denied by a policy, failed), shown with the call counts. */
  deliveries: DeliveryLog;
  /** The sandbox's own URL (`http://127.0.0.1:<port>`), set once it listens: Lambda code calls back to it. */
  endpoint?: string;
  /** Where Node.js functions get AWS SDK packages the sandbox does not ship (src/lambda-runtime/node/sdk-settings.ts). */
  sdkCacheDir?: string;
  /** The sandbox's own log: what it did on a caller's behalf that the caller cannot see. */
  log: (line: string) => void;
}

/** One resource the sandbox holds, as the admin inventory lists it. */
export interface InventoryEntry {
  id: string;
  [detail: string]: unknown;
}

/**
 * One AWS service. Add a service by writing a factory that returns this and listing it in
 * `services/index.ts`; the router finds it by the SigV4 signing name in `name`.
 */
export interface ServiceModule {
  /** The SigV4 signing name (credential scope service), e.g. `s3`, `sts`, `cloudcontrolapi`. */
  readonly name: string;
  readonly codec: Codec;
  /** The AWS operation name (e.g. `PutObject`); faults and counters key on it. */
  operation(request: SandboxRequest): string;
  /** Whether an operation changes state (for the "no-op redeploy makes zero mutating calls" check). */
  isMutating(operation: string): boolean;
  handle(request: SandboxRequest, operation: string): Promise<SandboxResponse>;
  /** Resources held, keyed by CloudFormation type (e.g. `AWS::S3::Bucket`). */
  inventory(): Record<string, InventoryEntry[]>;
  /**
   * Read-only views of what the module holds, served as `GET /_sandbox/views/<name>/<view>`
   * with the request's query; `undefined` answers 404. A view changes nothing it reads.
   */
  readonly views?: Readonly<Record<string, (query: URLSearchParams) => unknown>>;
  /** What the module answers over plain HTTP (API stages, function URLs), checked before SigV4 routing. */
  readonly ingress?: Ingress;
  /** Starts background work that needs the endpoint (Lambda's queued Event invocations), once listening. */
  started?(): void;
  /** Stops background work (Cloud Control's in-flight operations) when the sandbox stops. */
  close?(): Promise<void>;
}

export type ServiceModuleFactory = (context: SandboxContext) => Promise<ServiceModule>;

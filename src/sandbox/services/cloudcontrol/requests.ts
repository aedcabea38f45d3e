import { randomUUID } from 'node:crypto';
import { HandlerError } from '../../resources.js';
import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'cloudcontrol/requests';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';
export type OperationStatus =
  'PENDING' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'CANCEL_IN_PROGRESS' | 'CANCEL_COMPLETE';

/** One resource operation request, as persisted. */
export interface RequestRecord {
  requestToken: string;
  clientToken?: string;
  /** Same client token with another fingerprint is a ClientTokenConflictException. */
  fingerprint: string;
  typeName: string;
  operation: Operation;
  region: string;
  /** The account of the request that asked (absent in records kept before accounts: the sandbox's own). */
  accountId?: string;
  status: OperationStatus;
  identifier?: string;
  desiredState?: string;
  patchDocument?: string;
  resourceModel?: string;
  statusMessage?: string;
  errorCode?: string;
  /** Epoch ms of the last status change. */
  eventTime: number;
  /** Epoch ms at which the operation completes (the latency model's delay). */
  dueAt: number;
}

/** What running an operation yields: the identifier and, for create/update, the model. */
export interface Outcome {
  identifier: string;
  model?: Record<string, unknown>;
}

export type Executor = (record: RequestRecord) => Promise<Outcome>;

const IN_FLIGHT: ReadonlySet<OperationStatus> = new Set(['PENDING', 'IN_PROGRESS']);

/**
 * Request tokens and their progress: accepted PENDING, IN_PROGRESS once started, then
 * SUCCESS or FAILED when the latency model's delay has passed and the operation ran.
 */
export class RequestTracker {
  private readonly records = new Map<string, RequestRecord>();
  /** By `region`, `clientToken`: the first request made with the token. */
  private readonly byToken = new Map<string, RequestRecord>();
  /** Requests still PENDING or IN_PROGRESS (few at a time, while records only grow). */
  private readonly inFlight = new Set<RequestRecord>();
  /** Requests whose handler is running: a cancel comes too late for them. */
  private readonly executing = new Set<RequestRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly storage: Storage,
    private readonly execute: Executor,
  ) {}

  static async load(storage: Storage, execute: Executor): Promise<RequestTracker> {
    const tracker = new RequestTracker(storage, execute);
    for (const { doc } of await storage.listDocuments<RequestRecord>(NAMESPACE)) {
      tracker.track(doc);
      // A request the last run left in flight resumes where its delay stands.
      if (IN_FLIGHT.has(doc.status)) tracker.schedule(doc);
    }
    return tracker;
  }

  get(requestToken: string): RequestRecord | undefined {
    return this.records.get(requestToken);
  }

  byClientToken(region: string, clientToken: string): RequestRecord | undefined {
    return this.byToken.get(tokenKey(region, clientToken));
  }

  /** An in-flight request on the same resource (Cloud Control serializes them). */
  inFlightOn(typeName: string, region: string, identifier: string): RequestRecord | undefined {
    for (const record of this.inFlight) {
      if (record.typeName === typeName && record.region === region && record.identifier === identifier) {
        return record;
      }
    }
    return undefined;
  }

  all(): RequestRecord[] {
    return [...this.records.values()];
  }

  async accept(
    fields: Omit<RequestRecord, 'requestToken' | 'status' | 'eventTime' | 'dueAt'>,
    delayMs: number,
  ): Promise<RequestRecord> {
    const now = Date.now();
    const record: RequestRecord = {
      ...fields,
      requestToken: randomUUID(),
      status: 'PENDING',
      eventTime: now,
      dueAt: now + delayMs,
    };
    this.track(record);
    await this.save(record);
    this.schedule(record);
    return { ...record };
  }

  /**
   * Cancels an in-flight request; false when it has already finished. A request whose handler
   * is already running ends as the handler ends: reporting it cancelled while it makes the
   * resource would leave a resource no request owns.
   */
  async cancel(record: RequestRecord): Promise<boolean> {
    if (!IN_FLIGHT.has(record.status)) return false;
    if (this.executing.has(record)) return true;
    this.update(record, { status: 'CANCEL_COMPLETE' });
    await this.save(record);
    return true;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(record: RequestRecord): void {
    this.later(0, () => {
      if (record.status === 'PENDING') this.update(record, { status: 'IN_PROGRESS' });
    });
    this.later(Math.max(0, record.dueAt - Date.now()), () => this.finish(record));
  }

  private later(delayMs: number, action: () => unknown): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void action();
    }, delayMs);
    // An operation still in flight must not keep a test process or the CLI alive.
    timer.unref();
    this.timers.add(timer);
  }

  private async finish(record: RequestRecord): Promise<void> {
    if (!IN_FLIGHT.has(record.status)) return;
    this.executing.add(record);
    try {
      const outcome = await this.execute(record);
      this.update(record, {
        status: 'SUCCESS',
        identifier: outcome.identifier,
        ...(outcome.model ? { resourceModel: JSON.stringify(outcome.model) } : {}),
      });
    } catch (error) {
      const failure =
        error instanceof HandlerError ? error : new HandlerError('InternalFailure', 'Internal failure');
      this.update(record, { status: 'FAILED', errorCode: failure.errorCode, statusMessage: failure.message });
    } finally {
      this.executing.delete(record);
    }
    await this.save(record);
  }

  private track(record: RequestRecord): void {
    this.records.set(record.requestToken, record);
    if (record.clientToken !== undefined) {
      const key = tokenKey(record.region, record.clientToken);
      if (!this.byToken.has(key)) this.byToken.set(key, record);
    }
    if (IN_FLIGHT.has(record.status)) this.inFlight.add(record);
  }

  private update(record: RequestRecord, change: Partial<RequestRecord>): void {
    Object.assign(record, change, { eventTime: Date.now() });
    if (!IN_FLIGHT.has(record.status)) this.inFlight.delete(record);
  }

  private save(record: RequestRecord): Promise<void> {
    return this.storage.putDocument(NAMESPACE, record.requestToken, record);
  }
}

const tokenKey = (region: string, clientToken: string): string => `${region}\u0000${clientToken}`;

/** The record as the API's ProgressEvent structure (timestamps in epoch seconds). */
export function progressEvent(
  record: RequestRecord,
  status: OperationStatus = record.status,
): Record<string, unknown> {
  return {
    TypeName: record.typeName,
    ...(record.identifier !== undefined ? { Identifier: record.identifier } : {}),
    RequestToken: record.requestToken,
    Operation: record.operation,
    OperationStatus: status,
    EventTime: record.eventTime / 1000,
    ...(record.resourceModel !== undefined ? { ResourceModel: record.resourceModel } : {}),
    ...(record.statusMessage !== undefined ? { StatusMessage: record.statusMessage } : {}),
    ...(record.errorCode !== undefined ? { ErrorCode: record.errorCode } : {}),
  };
}

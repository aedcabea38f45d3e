import type { CloudControlClient, ProgressEvent } from '@aws-sdk/client-cloudcontrol';
import { classifyAwsError } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';
import type { Clock } from '../clock.js';
import { cloudControlSdk } from '../../aws/sdk-modules.js';

export type CcOperation = 'create' | 'update' | 'delete';

const MINUTE_MS = 60_000;
const FIRST_POLL_MS = 1000;
const POLL_MULTIPLIER = 1.5;
const MAX_POLL_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 15 * MINUTE_MS;
/** How long cdkd keeps re-polling a request token while Cloud Control cannot be reached. */
export const OUTAGE_ALLOWANCE_MS = 2 * MINUTE_MS;

/**
 * Known-slow types, per operation: their usual 15-30 minutes would otherwise hit the
 * 15-minute deadline mid-operation and leave a half-done create or delete.
 */
const SLOW_DEADLINES_MS: Readonly<Record<string, Partial<Record<CcOperation, number>>>> = {
  'AWS::OpenSearchService::Domain': {
    create: 60 * MINUTE_MS,
    update: 60 * MINUTE_MS,
    delete: 60 * MINUTE_MS,
  },
  'AWS::Elasticsearch::Domain': { create: 60 * MINUTE_MS, update: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
  'AWS::RDS::DBCluster': { create: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
  'AWS::RDS::DBInstance': { create: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
  'AWS::Redshift::Cluster': { create: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
  'AWS::ElastiCache::CacheCluster': { create: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
  'AWS::ElastiCache::ReplicationGroup': { create: 60 * MINUTE_MS, delete: 60 * MINUTE_MS },
};

/** The wait before poll `index` (0-based): 1 s, ×1.5 each time, capped at 10 s. */
export function pollDelayMs(index: number): number {
  return Math.min(Math.round(FIRST_POLL_MS * POLL_MULTIPLIER ** index), MAX_POLL_MS);
}

export function pollDeadlineMs(type: string, operation: CcOperation): number {
  return Math.max(DEFAULT_DEADLINE_MS, SLOW_DEADLINES_MS[type]?.[operation] ?? 0);
}

const TERMINAL = new Set(['SUCCESS', 'FAILED', 'CANCEL_COMPLETE']);

export interface WaitOptions {
  type: string;
  operation: CcOperation;
  clock: Clock;
  signal?: AbortSignal | undefined;
  /** Each status read, for progress output. */
  onStatus?: ((event: ProgressEvent) => void) | undefined;
}

/**
 * Polls GetResourceRequestStatus until the request ends: Cloud Control's create,
 * update and delete are asynchronous (they answer a request token, PENDING or
 * IN_PROGRESS), and that status is the only way to learn the outcome and the
 * identifier. A failed status read that is
 * throttling or transient (an outage, EADDRNOTAVAIL under load) is re-polled for up to
 * two minutes: reading the status is safe to repeat.
 */
export async function waitForRequest(
  client: CloudControlClient,
  first: ProgressEvent,
  options: WaitOptions,
): Promise<ProgressEvent> {
  const token = first.RequestToken!;
  const { GetResourceRequestStatusCommand } = await cloudControlSdk();
  const started = options.clock.now();
  const deadline = started + pollDeadlineMs(options.type, options.operation);
  let event = first;
  let outageSince: number | undefined;
  for (let poll = 0; !TERMINAL.has(event.OperationStatus ?? ''); poll += 1) {
    if (options.clock.now() >= deadline) throw timedOut(options, token, deadline - started);
    await options.clock.sleep(pollDelayMs(poll), options.signal);
    try {
      const output = await client.send(new GetResourceRequestStatusCommand({ RequestToken: token }), {
        abortSignal: options.signal,
      });
      event = output.ProgressEvent!;
      outageSince = undefined;
      options.onStatus?.(event);
    } catch (error) {
      const errorClass = classifyAwsError(error);
      if (errorClass !== 'transient' && errorClass !== 'throttling') throw error;
      outageSince ??= options.clock.now();
      if (options.clock.now() - outageSince >= OUTAGE_ALLOWANCE_MS) {
        throw new CdkdError(
          'CC_STATUS_UNREACHABLE',
          `Cloud Control could not be reached for two minutes while waiting for the ${options.operation} of a ${options.type} (request token ${token}).`,
          { hint: statusHint(token), cause: error },
        );
      }
    }
  }
  return event;
}

function timedOut(options: WaitOptions, token: string, deadlineMs: number): CdkdError {
  return new CdkdError(
    'CC_OPERATION_TIMEOUT',
    `The ${options.operation} of a ${options.type} did not finish within ${deadlineMs / MINUTE_MS} minutes (request token ${token}); Cloud Control may still complete it.`,
    { hint: statusHint(token) },
  );
}

function statusHint(token: string): string {
  return `Check it with: aws cloudcontrol get-resource-request-status --request-token ${token}`;
}

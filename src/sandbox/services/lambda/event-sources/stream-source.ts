import { randomUUID } from 'node:crypto';
import { roleCaller } from '../../../ports/delivery.js';
import {
  dynamoDbStreams,
  kinesisStreams,
  roleReader,
  snsPublisher,
  sqsSender,
  type StreamRecordEntry,
} from '../../../ports/index.js';
import type { MappingRecord } from '../model.js';
import { failedItems } from './batch-response.js';
import { keptByFilters, type FilterCriteria } from './filters.js';
import { noteResult, type PollerDeps } from './poller-deps.js';

export interface StreamState {
  /** Invocations of the batch at the checkpoint so far, while it keeps failing. */
  attempts?: number;
}

type Outcome = 'done' | 'blocked';

/**
 * One poll of a stream (DynamoDB Streams or Kinesis), in order from the mapping's
 * checkpoint: a batch is read, filtered, and invoked; on success the checkpoint moves past
 * it (under ReportBatchItemFailures, to just before the first failed record). A failing
 * batch is split in two with BisectBatchOnFunctionError and retried up to
 * MaximumRetryAttempts (-1: until it succeeds, blocking the stream, or ages out past
 * MaximumRecordAgeInSeconds); then what failed goes to the on-failure destination and the
 * stream moves on.
 */
export async function pollStream(
  deps: PollerDeps,
  mapping: MappingRecord,
  state: StreamState,
  kind: 'dynamodb' | 'kinesis',
): Promise<boolean> {
  const reader = (kind === 'dynamodb' ? dynamoDbStreams : kinesisStreams).of(deps.context);
  const streamArn = mapping.eventSourceArn!;
  if (!reader) return false;
  if (mapping.position === undefined) {
    const latest = reader.latest(streamArn);
    if (latest === undefined) return false;
    mapping.position = mapping.startingPosition === 'LATEST' ? latest : '0';
    await deps.store.saveMappingProgress(mapping);
  }
  const entries = reader.read(streamArn, mapping.position, mapping.batchSize ?? 100);
  if (entries === undefined) {
    await noteResult(deps.store, mapping, 'PROBLEM: The event source stream does not exist.');
    return false;
  }
  const since = mapping.startingPosition === 'AT_TIMESTAMP' ? startTimestamp(mapping) : 0;
  const batch = entries.filter((entry) => entry.arrivedAt >= since);
  if (entries.length === 0) return false;
  const { kept } = keptByFilters(
    batch.map((entry) => ({ ...entry.record, eventSourceARN: streamArn, __entry: entry })),
    mapping.settings?.FilterCriteria as FilterCriteria | undefined,
  );
  const process = new BatchProcess(deps, mapping, state, kind);
  const outcome = await process.run(kept.map((record) => record.__entry));
  if (outcome === 'done') await process.checkpoint(entries[entries.length - 1]!);
  return outcome === 'done';
}

function startTimestamp(mapping: MappingRecord): number {
  const value = mapping.settings?.StartingPositionTimestamp;
  return typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : 0;
}

class BatchProcess {
  constructor(
    private readonly deps: PollerDeps,
    private readonly mapping: MappingRecord,
    private readonly state: StreamState,
    private readonly kind: 'dynamodb' | 'kinesis',
  ) {}

  private get maxRetries(): number {
    return Number(this.mapping.settings?.MaximumRetryAttempts ?? -1);
  }

  async checkpoint(entry: StreamRecordEntry): Promise<void> {
    this.mapping.position = entry.sequenceNumber;
    delete this.state.attempts;
    await this.deps.store.saveMappingProgress(this.mapping);
  }

  async run(batch: StreamRecordEntry[]): Promise<Outcome> {
    if (batch.length === 0) return 'done';
    for (;;) {
      this.state.attempts = (this.state.attempts ?? 0) + 1;
      const failedAt = await this.invoke(batch);
      if (failedAt === -1) {
        await this.checkpoint(batch[batch.length - 1]!);
        await noteResult(this.deps.store, this.mapping, 'OK');
        return 'done';
      }
      if (failedAt > 0) {
        await this.checkpoint(batch[failedAt - 1]!);
        batch = batch.slice(failedAt);
      }
      await noteResult(this.deps.store, this.mapping, 'PROBLEM: Function call failed');
      if (this.mapping.settings?.BisectBatchOnFunctionError === true && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        delete this.state.attempts;
        if ((await this.run(batch.slice(0, half))) === 'blocked') return 'blocked';
        return this.run(batch.slice(half));
      }
      const expired = this.expired(batch);
      if (expired || (this.maxRetries >= 0 && this.state.attempts > this.maxRetries)) {
        await this.onFailure(batch, expired ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted');
        await this.checkpoint(batch[batch.length - 1]!);
        return 'done';
      }
      // Retried without end: the next poll tries the batch again, the stream waiting behind it.
      if (this.maxRetries < 0) return 'blocked';
    }
  }

  /** -1 when the whole batch succeeded; else the index of the first record to retry. */
  private async invoke(batch: StreamRecordEntry[]): Promise<number> {
    const records = batch.map((entry) => ({ ...entry.record, eventSourceARN: this.mapping.eventSourceArn }));
    const result = await this.deps.invoke(this.mapping.functionArn, JSON.stringify({ Records: records }));
    if (!result.delivered || result.functionError) return 0;
    const reports = ((this.mapping.settings?.FunctionResponseTypes as string[] | undefined) ?? []).includes(
      'ReportBatchItemFailures',
    );
    if (!reports) return -1;
    const failed = failedItems(
      result.payload,
      batch.map((entry) => entry.sequenceNumber),
    );
    if (failed === 'all') return 0;
    const index = batch.findIndex((entry) => failed.has(entry.sequenceNumber));
    return index;
  }

  private expired(batch: StreamRecordEntry[]): boolean {
    const maxAge = Number(this.mapping.settings?.MaximumRecordAgeInSeconds ?? -1);
    return maxAge >= 0 && this.deps.context.clock.now() - batch[0]!.arrivedAt > maxAge * 1000;
  }

  /** Lambda's invocation record for a batch it gave up on, to the on-failure destination (SQS or SNS). */
  private async onFailure(batch: StreamRecordEntry[], condition: string): Promise<void> {
    const destination = (this.mapping.settings?.DestinationConfig as { OnFailure?: { Destination?: string } })
      ?.OnFailure?.Destination;
    if (!destination) return;
    const first = batch[0]!;
    const last = batch[batch.length - 1]!;
    const info = {
      shardId: first.shardId,
      startSequenceNumber: first.sequenceNumber,
      endSequenceNumber: last.sequenceNumber,
      approximateArrivalOfFirstRecord: new Date(first.arrivedAt).toISOString(),
      approximateArrivalOfLastRecord: new Date(last.arrivedAt).toISOString(),
      batchSize: batch.length,
      streamArn: this.mapping.eventSourceArn,
    };
    const body = JSON.stringify({
      requestContext: {
        requestId: randomUUID(),
        functionArn: this.mapping.functionArn,
        condition,
        approximateInvokeCount: this.state.attempts ?? 1,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: this.deps.context.clock.iso(),
      [this.kind === 'dynamodb' ? 'DDBStreamBatchInfo' : 'KinesisBatchInfo']: info,
    });
    const caller = this.functionRoleCaller();
    if (destination.split(':')[2] === 'sns') {
      await snsPublisher.of(this.deps.context)?.publish(destination, body, undefined, caller);
    } else {
      await sqsSender.of(this.deps.context)?.send(destination, body, caller ? { caller } : {});
    }
  }

  /** Lambda sends to the destination as the function's execution role. */
  private functionRoleCaller() {
    const record = this.deps.store.function(
      this.mapping.region,
      this.mapping.functionArn.split(':')[6] ?? '',
    );
    const roles = roleReader.of(this.deps.context);
    if (!record || !roles) return undefined;
    const source = `arn:aws:lambda:${this.mapping.region}:${this.mapping.functionArn.split(':')[4]}:event-source-mapping:${this.mapping.uuid}`;
    return roleCaller('lambda', source, record.latest.role, roles.identityPolicies(record.latest.role));
  }
}

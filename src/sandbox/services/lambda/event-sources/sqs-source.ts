import { sqsConsumer, type ReceivedMessage } from '../../../ports/index.js';
import type { MappingRecord } from '../model.js';
import { failedItems } from './batch-response.js';
import { keptByFilters, type FilterCriteria } from './filters.js';
import { noteResult, type PollerDeps } from './poller-deps.js';

export interface QueueState {
  /** Sandbox time the batching window started (the first message seen waiting). */
  windowStart?: number;
}

/**
 * One poll of a queue: once a full batch waits, or the batching window (on the sandbox
 * clock) has passed since the first message showed, receives a batch, drops (deletes) what
 * the filters do not keep, invokes the function, and deletes what it handled: all of it on
 * success, all but the reported failures under ReportBatchItemFailures, none on an error
 * (those show again after the visibility timeout, and SQS's redrive policy moves them on).
 */
export async function pollQueue(
  deps: PollerDeps,
  mapping: MappingRecord,
  state: QueueState,
): Promise<boolean> {
  const consumer = sqsConsumer.of(deps.context);
  const queueArn = mapping.eventSourceArn!;
  if (!consumer) return false;
  if (!consumer.attributes(queueArn)) {
    await noteResult(deps.store, mapping, 'PROBLEM: The event source queue does not exist.');
    return false;
  }
  const batchSize = mapping.batchSize ?? 10;
  const windowMs = (mapping.maximumBatchingWindowInSeconds ?? 0) * 1000;
  const waiting = consumer.visibleCount(queueArn);
  if (waiting === 0) {
    delete state.windowStart;
    return false;
  }
  const now = deps.context.clock.now();
  if (waiting < batchSize && windowMs > 0) {
    state.windowStart ??= now;
    if (now - state.windowStart < windowMs) return false;
  }
  delete state.windowStart;
  const messages = (await consumer.receive(queueArn, batchSize)) ?? [];
  if (messages.length === 0) return false;
  const region = queueArn.split(':')[3] ?? deps.context.region;
  const records = messages.map((message) => record(message, queueArn, region));
  const { kept, dropped } = keptByFilters(
    records,
    mapping.settings?.FilterCriteria as FilterCriteria | undefined,
  );
  await consumer.delete(
    queueArn,
    dropped.map((r) => r.receiptHandle),
  );
  if (kept.length === 0) return true;
  const result = await deps.invoke(mapping.functionArn, JSON.stringify({ Records: kept }));
  if (!result.delivered) {
    await noteResult(deps.store, mapping, `PROBLEM: ${result.code}: ${result.message}`);
    return true;
  }
  if (result.functionError) {
    await noteResult(deps.store, mapping, 'PROBLEM: Function call failed');
    return true;
  }
  const reports = ((mapping.settings?.FunctionResponseTypes as string[] | undefined) ?? []).includes(
    'ReportBatchItemFailures',
  );
  const failed = reports
    ? failedItems(
        result.payload,
        kept.map((r) => r.messageId),
      )
    : new Set<string>();
  if (failed !== 'all') {
    await consumer.delete(
      queueArn,
      kept.filter((r) => !failed.has(r.messageId)).map((r) => r.receiptHandle),
    );
  }
  await noteResult(deps.store, mapping, 'OK');
  return true;
}

/** A message as Lambda's SQS event record. */
function record(message: ReceivedMessage, queueArn: string, region: string) {
  return {
    messageId: message.messageId,
    receiptHandle: message.receiptHandle,
    body: message.body,
    attributes: message.attributes,
    messageAttributes: Object.fromEntries(
      Object.entries(message.messageAttributes).map(([name, value]) => [
        name,
        {
          ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
          ...(value.BinaryValue !== undefined ? { binaryValue: value.BinaryValue } : {}),
          stringListValues: [],
          binaryListValues: [],
          dataType: value.DataType,
        },
      ]),
    ),
    md5OfBody: message.md5OfBody,
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

import type { JsonObject } from '../provider.js';
import { attributeText } from '../property-values.js';

/**
 * AWS::SQS::Queue properties and the SQS attribute each becomes. Every property except
 * QueueName and Tags is an attribute of the same name; `reset` is the value SQS holds when
 * the attribute is unset, which an update sends when the template drops the property
 * (CloudFormation returns a removed property to its default).
 */
interface AttributeRow {
  kind: 'number' | 'boolean' | 'text' | 'json';
  reset: string;
}

export const QUEUE_ATTRIBUTES: Readonly<Record<string, AttributeRow>> = {
  ContentBasedDeduplication: { kind: 'boolean', reset: 'false' },
  DeduplicationScope: { kind: 'text', reset: 'queue' },
  DelaySeconds: { kind: 'number', reset: '0' },
  FifoQueue: { kind: 'boolean', reset: 'false' },
  FifoThroughputLimit: { kind: 'text', reset: 'perQueue' },
  KmsDataKeyReusePeriodSeconds: { kind: 'number', reset: '300' },
  KmsMasterKeyId: { kind: 'text', reset: '' },
  MaximumMessageSize: { kind: 'number', reset: '262144' },
  MessageRetentionPeriod: { kind: 'number', reset: '345600' },
  ReceiveMessageWaitTimeSeconds: { kind: 'number', reset: '0' },
  RedriveAllowPolicy: { kind: 'json', reset: '' },
  RedrivePolicy: { kind: 'json', reset: '' },
  SqsManagedSseEnabled: { kind: 'boolean', reset: 'true' },
  VisibilityTimeout: { kind: 'number', reset: '30' },
};

/** FIFO-only attributes: SQS refuses them on a standard queue, even at their defaults. */
const FIFO_ONLY = new Set(['ContentBasedDeduplication', 'DeduplicationScope', 'FifoThroughputLimit']);

export const QUEUE_PROPERTIES = [...Object.keys(QUEUE_ATTRIBUTES), 'QueueName', 'Tags'];

/** The CreateQueue attributes for the template's properties. */
export function queueAttributes(properties: JsonObject): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of Object.keys(QUEUE_ATTRIBUTES)) {
    const value = properties[name];
    if (value === undefined || value === null) continue;
    // A standard queue is the absence of FifoQueue; SQS refuses FifoQueue=false on Set.
    if (name === 'FifoQueue' && attributeText(value) !== 'true') continue;
    attributes[name] = attributeText(value);
  }
  return attributes;
}

/**
 * The SetQueueAttributes changes from `before` to `after`: changed values, and the
 * reset value for each attribute the template dropped. FifoQueue never appears: it is
 * create-only.
 */
export function queueAttributeChanges(
  before: JsonObject,
  after: JsonObject,
  fifo: boolean,
): Record<string, string> {
  const previous = queueAttributes(before);
  const next = queueAttributes(after);
  const changes: Record<string, string> = {};
  for (const [name, row] of Object.entries(QUEUE_ATTRIBUTES)) {
    if (name === 'FifoQueue' || previous[name] === next[name]) continue;
    if (next[name] !== undefined) changes[name] = next[name];
    else if (fifo || !FIFO_ONLY.has(name)) changes[name] = row.reset;
  }
  // Turning KMS off is choosing SQS-managed SSE again; the reset of one must not undo the other.
  if (changes.KmsMasterKeyId === '' && next.SqsManagedSseEnabled === undefined) {
    changes.SqsManagedSseEnabled = 'true';
  }
  if (changes.SqsManagedSseEnabled === 'true' && next.KmsMasterKeyId !== undefined) {
    delete changes.SqsManagedSseEnabled;
  }
  return changes;
}

/** The observed properties from GetQueueAttributes (typed as CloudFormation gives them). */
export function propertiesFromAttributes(attributes: Record<string, string>): JsonObject {
  const properties: JsonObject = {};
  for (const [name, row] of Object.entries(QUEUE_ATTRIBUTES)) {
    const value = attributes[name];
    if (value === undefined || value === '') continue;
    properties[name] =
      row.kind === 'number'
        ? Number(value)
        : row.kind === 'boolean'
          ? value === 'true'
          : row.kind === 'json'
            ? parseJson(value)
            : value;
  }
  return properties;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

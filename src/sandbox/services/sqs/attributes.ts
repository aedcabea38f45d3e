import { sqsErrors } from './sqs-errors.js';

/** Settable attributes with AWS's default and, for numbers, the accepted range. */
interface AttributeRule {
  default?: string;
  range?: [number, number];
  /** Only at CreateQueue (FifoQueue). */
  createOnly?: boolean;
  /** Only on FIFO queues. */
  fifoOnly?: boolean;
}

const RULES: Record<string, AttributeRule> = {
  DelaySeconds: { default: '0', range: [0, 900] },
  MaximumMessageSize: { default: '262144', range: [1024, 1048576] },
  MessageRetentionPeriod: { default: '345600', range: [60, 1209600] },
  ReceiveMessageWaitTimeSeconds: { default: '0', range: [0, 20] },
  VisibilityTimeout: { default: '30', range: [0, 43200] },
  KmsDataKeyReusePeriodSeconds: { range: [60, 86400] },
  KmsMasterKeyId: {},
  SqsManagedSseEnabled: {},
  Policy: {},
  RedrivePolicy: {},
  RedriveAllowPolicy: {},
  FifoQueue: { createOnly: true },
  ContentBasedDeduplication: { fifoOnly: true },
  DeduplicationScope: { fifoOnly: true },
  FifoThroughputLimit: { fifoOnly: true },
};

/** Attributes SQS computes; GetQueueAttributes lists them, Set refuses them. */
export const COMPUTED_ATTRIBUTES = [
  'QueueArn',
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
  'CreatedTimestamp',
  'LastModifiedTimestamp',
] as const;

/** A name GetQueueAttributes accepts. */
export function isAttributeName(name: string): boolean {
  return name in RULES || (COMPUTED_ATTRIBUTES as readonly string[]).includes(name);
}

/** What a new queue holds before the caller's attributes apply. */
export function defaultAttributes(fifo: boolean): Record<string, string> {
  const defaults: Record<string, string> = { SqsManagedSseEnabled: 'true' };
  for (const [name, rule] of Object.entries(RULES)) if (rule.default) defaults[name] = rule.default;
  if (fifo) {
    Object.assign(defaults, {
      FifoQueue: 'true',
      ContentBasedDeduplication: 'false',
      DeduplicationScope: 'queue',
      FifoThroughputLimit: 'perQueue',
    });
  }
  return defaults;
}

/** Checks names and values as SQS does; `creating` allows FifoQueue. */
export function validateAttributes(
  attributes: Record<string, string>,
  options: { creating: boolean; fifo: boolean },
): void {
  for (const [name, value] of Object.entries(attributes)) {
    const rule = RULES[name];
    if (!rule || (rule.createOnly && !options.creating)) throw sqsErrors.invalidAttributeName(name);
    if (rule.fifoOnly && !options.fifo) throw sqsErrors.invalidAttributeName(name);
    if (rule.range) {
      const number = Number(value);
      if (!/^-?\d+$/.test(value) || number < rule.range[0] || number > rule.range[1]) {
        throw sqsErrors.invalidAttributeValue(`Invalid value for the parameter ${name}.`);
      }
    }
    if ((name === 'RedrivePolicy' || name === 'Policy' || name === 'RedriveAllowPolicy') && value !== '') {
      validateJson(name, value);
    }
    if (name === 'SqsManagedSseEnabled' && value === 'true' && attributes.KmsMasterKeyId) {
      throw sqsErrors.invalidAttributeValue(
        'You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.',
      );
    }
  }
}

function validateJson(name: string, value: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw sqsErrors.invalidAttributeValue(`Invalid value for the parameter ${name}.`);
  }
  if (name !== 'RedrivePolicy') return;
  const policy = parsed as { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown };
  if (typeof policy.deadLetterTargetArn !== 'string' || policy.maxReceiveCount === undefined) {
    throw sqsErrors.invalidParameterValue(
      'Value for parameter RedrivePolicy is invalid. Reason: Redrive policy is not a valid JSON map.',
    );
  }
}

/**
 * Applies a Set/Create to the stored attributes: KMS and SQS-managed SSE exclude each
 * other, so choosing one turns the other off, as SQS does.
 */
export function mergeAttributes(
  current: Record<string, string>,
  changes: Record<string, string>,
): Record<string, string> {
  const next = { ...current, ...changes };
  if (changes.Policy) next.Policy = storedPolicy(changes.Policy);
  if (changes.KmsMasterKeyId) {
    next.SqsManagedSseEnabled = 'false';
    next.KmsDataKeyReusePeriodSeconds ??= '300';
  }
  if (changes.SqsManagedSseEnabled === 'true' || changes.KmsMasterKeyId === '') {
    delete next.KmsMasterKeyId;
    delete next.KmsDataKeyReusePeriodSeconds;
  }
  for (const [name, value] of Object.entries(changes)) {
    // An empty value clears an optional attribute (Policy, RedrivePolicy ...).
    if (value === '' && RULES[name]?.default === undefined) delete next[name];
  }
  return next;
}

/** Whether CreateQueue's attributes agree with an existing queue's (else QueueNameExists). */
export function sameAttributes(existing: Record<string, string>, requested: Record<string, string>): boolean {
  return Object.entries(requested).every(
    ([name, value]) => (existing[name] ?? '') === (name === 'Policy' && value ? storedPolicy(value) : value),
  );
}

/** SQS keeps a bare account-id principal as that account's root ARN; other text as sent. */
function storedPolicy(text: string): string {
  const policy = JSON.parse(text) as { Statement?: unknown } | null;
  if (typeof policy !== 'object' || policy === null) return text;
  let changed = false;
  const rootArn = (value: unknown) => {
    if (typeof value !== 'string' || !/^\d{12}$/.test(value)) return value;
    changed = true;
    return `arn:aws:iam::${value}:root`;
  };
  const statements = Array.isArray(policy.Statement) ? policy.Statement : [policy.Statement];
  for (const statement of statements) {
    if (typeof statement !== 'object' || statement === null) continue;
    for (const key of ['Principal', 'NotPrincipal']) {
      const principal = (statement as Record<string, unknown>)[key] as Record<string, unknown> | undefined;
      if (typeof principal !== 'object' || principal === null || principal.AWS === undefined) continue;
      const aws = principal.AWS;
      principal.AWS = Array.isArray(aws) ? aws.map(rootArn) : rootArn(aws);
    }
  }
  return changed ? JSON.stringify(policy) : text;
}

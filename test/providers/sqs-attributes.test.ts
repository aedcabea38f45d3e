import { describe, expect, it } from 'vitest';
import {
  propertiesFromAttributes,
  queueAttributeChanges,
  queueAttributes,
} from '../../src/providers/sqs/queue-attributes.js';

describe('queueAttributes', () => {
  it.each([
    ['a number given as text stays text', { VisibilityTimeout: '30' }, { VisibilityTimeout: '30' }],
    ['a number becomes text', { DelaySeconds: 5 }, { DelaySeconds: '5' }],
    ['a boolean becomes text', { SqsManagedSseEnabled: false }, { SqsManagedSseEnabled: 'false' }],
    [
      'a JSON object becomes JSON text',
      { RedrivePolicy: { maxReceiveCount: 3 } },
      { RedrivePolicy: '{"maxReceiveCount":3}' },
    ],
    ['FifoQueue false is a standard queue (no attribute)', { FifoQueue: false }, {}],
    ['FifoQueue "true" is sent', { FifoQueue: 'true' }, { FifoQueue: 'true' }],
    ['QueueName and Tags are not attributes', { QueueName: 'q', Tags: [] }, {}],
  ])('%s', (_name, properties, expected) => {
    expect(queueAttributes(properties)).toEqual(expected);
  });
});

describe('queueAttributeChanges', () => {
  it.each([
    ['unchanged sends nothing', { VisibilityTimeout: 30 }, { VisibilityTimeout: '30' }, false, {}],
    [
      'a changed value is sent',
      { VisibilityTimeout: 30 },
      { VisibilityTimeout: 60 },
      false,
      { VisibilityTimeout: '60' },
    ],
    ['a removed number resets to the SQS default', { DelaySeconds: 5 }, {}, false, { DelaySeconds: '0' }],
    ['a removed redrive policy is cleared', { RedrivePolicy: { a: 1 } }, {}, false, { RedrivePolicy: '' }],
    [
      'removing KMS turns SQS-managed SSE back on',
      { KmsMasterKeyId: 'k' },
      {},
      false,
      { KmsMasterKeyId: '', SqsManagedSseEnabled: 'true' },
    ],
    [
      'removing KMS while SSE is explicitly off keeps it off',
      { KmsMasterKeyId: 'k' },
      { SqsManagedSseEnabled: false },
      false,
      { KmsMasterKeyId: '', SqsManagedSseEnabled: 'false' },
    ],
    [
      'a FIFO-only attribute is not reset on a standard queue',
      { DeduplicationScope: 'queue' },
      {},
      false,
      {},
    ],
    [
      'a FIFO-only attribute resets on a FIFO queue',
      { DeduplicationScope: 'messageGroup' },
      {},
      true,
      { DeduplicationScope: 'queue' },
    ],
  ])('%s', (_name, before, after, fifo, expected) => {
    expect(queueAttributeChanges(before, after, fifo)).toEqual(expected);
  });
});

describe('propertiesFromAttributes', () => {
  it('types each attribute as CloudFormation gives it and skips empty ones', () => {
    expect(
      propertiesFromAttributes({
        VisibilityTimeout: '30',
        FifoQueue: 'true',
        RedrivePolicy: '{"maxReceiveCount":3}',
        KmsMasterKeyId: '',
        QueueArn: 'arn',
      }),
    ).toEqual({ VisibilityTimeout: 30, FifoQueue: true, RedrivePolicy: { maxReceiveCount: 3 } });
  });
});

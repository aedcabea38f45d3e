import { describe, expect, it } from 'vitest';
import type { AwsClients } from '../../src/aws/client-factory.js';
import { describeResourceType } from '../../src/aws/describe-type.js';

// DescribeType's answers: a refusal is the caller's own policy, so cdkd's retry schedules (which
// wait out an IAM grant still propagating) must not hold a deploy on it before the bundled schema.
function clientsAnswering(...answers: Array<() => unknown>): { clients: AwsClients; calls: () => number } {
  let calls = 0;
  const client = {
    send: async () => {
      const answer = answers[Math.min(calls, answers.length - 1)]!;
      calls += 1;
      return answer();
    },
  };
  return { clients: { client: async () => client } as unknown as AwsClients, calls: () => calls };
}

const awsError = (name: string, status: number) =>
  Object.assign(new Error(`${name} from AWS`), { name, $metadata: { httpStatusCode: status } });

/** A retry that tries again on any error, as cdkd's schedules do on a retryable class. */
const retryAll = async <T>(_label: string, call: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
};

describe('describeResourceType', () => {
  it('answers the schema', async () => {
    const { clients } = clientsAnswering(() => ({ Schema: '{"typeName":"AWS::X::Y"}' }));
    expect(await describeResourceType(clients, 'us-east-1', 'AWS::X::Y', retryAll)).toEqual({
      kind: 'schema',
      schema: '{"typeName":"AWS::X::Y"}',
    });
  });

  it('answers denied at the first refusal, without retrying it', async () => {
    const { clients, calls } = clientsAnswering(() => {
      throw awsError('AccessDeniedException', 400);
    });
    expect(await describeResourceType(clients, 'us-east-1', 'AWS::X::Y', retryAll)).toEqual({
      kind: 'denied',
      code: 'AccessDeniedException',
    });
    expect(calls()).toBe(1);
  });

  it('retries what is retryable, and answers type-not-found and other failures', async () => {
    const throttled = clientsAnswering(
      () => {
        throw awsError('Throttling', 400);
      },
      () => ({ Schema: '{}' }),
    );
    expect(await describeResourceType(throttled.clients, 'us-east-1', 'AWS::X::Y', retryAll)).toEqual({
      kind: 'schema',
      schema: '{}',
    });
    expect(throttled.calls()).toBe(2);
    const missing = clientsAnswering(() => {
      throw awsError('TypeNotFoundException', 404);
    });
    expect(await describeResourceType(missing.clients, 'us-east-1', 'AWS::X::Y', retryAll)).toEqual({
      kind: 'type-not-found',
    });
  });
});

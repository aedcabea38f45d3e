import { messageOf } from '../errors.js';
import type { AwsClients } from './client-factory.js';
import { awsErrorCode, classifyAwsError } from './error-class.js';

/** What `cloudformation:DescribeType` answered for one resource type. */
export type DescribeTypeAnswer =
  | { kind: 'schema'; schema: string }
  | { kind: 'type-not-found' }
  | { kind: 'denied'; code: string }
  | { kind: 'failed'; message: string };

/**
 * Reads a resource type's registry schema (the default version) in `region`. `retry` wraps
 * the call in cdkd's retry schedules; what it still fails with becomes an answer, not an error.
 */
export async function describeResourceType(
  clients: AwsClients,
  region: string,
  type: string,
  retry: <T>(label: string, call: () => Promise<T>) => Promise<T>,
): Promise<DescribeTypeAnswer> {
  // Loaded on first use, like the other clients: most runs never ask.
  const { CloudFormationClient, DescribeTypeCommand } = await import('@aws-sdk/client-cloudformation');
  // One attempt per call: `retry` runs cdkd's schedules around it.
  const client = await clients.client(CloudFormationClient, region, { maxAttempts: 1 });
  try {
    // A refusal is the caller's own policy, not a grant still propagating: no retry waits it out.
    const answer = await retry(`DescribeType ${type}`, () =>
      client.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: type })).catch((error: unknown) => {
        if (classifyAwsError(error) === 'access-denied') return { denied: error };
        throw error;
      }),
    );
    if ('denied' in answer) return { kind: 'denied', code: awsErrorCode(answer.denied) ?? 'AccessDenied' };
    return answer.Schema === undefined
      ? { kind: 'failed', message: 'the answer holds no Schema' }
      : { kind: 'schema', schema: answer.Schema };
  } catch (error) {
    const code = awsErrorCode(error) ?? 'Error';
    if (code === 'TypeNotFoundException') return { kind: 'type-not-found' };
    return { kind: 'failed', message: `${code}: ${messageOf(error)}` };
  }
}

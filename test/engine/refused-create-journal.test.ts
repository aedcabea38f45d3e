import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * A CREATE cdkd refused before anything was applied (another resource already holds its
 * explicit name) is not journaled at all (spec, `--revert-failed` per failed operation).
 */
const sandbox = useSandboxEngine('refused-state');
const stackName = 'Refused';
const ref = { stackName, region: REGION };

beforeAll(async () => {
  await (await sandbox.clients.s3()).send(new CreateBucketCommand({ Bucket: 'already-taken' }));
});

describe('a create refused because its explicit name is taken', () => {
  it('fails the deploy with NAMED_CREATE_COLLISION and leaves no journal entry for it', async () => {
    // The bucket's name is known only once the queue exists, so the create itself is refused.
    const resources = {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'already-taken' } },
      Bucket: {
        Type: 'AWS::S3::Bucket',
        Properties: { BucketName: { 'Fn::GetAtt': ['Queue', 'QueueName'] } },
      },
    };
    const failure = await sandbox.deploy(stackName, resources, { rollback: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failureOf(failure).codes).toContain('NAMED_CREATE_COLLISION');

    const journal = await sandbox.backend.journals.read(ref);
    const operations = journal!.document.segments.flatMap((segment) => segment.operations);
    expect(operations.map((op) => [op.logicalId, op.action, op.status])).toEqual([
      ['Queue', 'create', 'completed'],
    ]);

    // Nothing is left for --revert-failed to warn about: the rollback only reverts the queue.
    const result = await sandbox.rollback(stackName, { revertFailed: true });
    expect(result.exitCode).toBe(0);
    expect(sandbox.events.filter((event) => event.kind === 'warning')).toEqual([]);
  });
});

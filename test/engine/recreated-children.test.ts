import { GetBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 002 "Children deleted with the target", end to end on the sandbox: a bucket with a
 * fixed name re-created under the same name by the delete-first --replace of a create-only
 * change, and its bucket policy, which S3 deleted with it.
 */
const sandbox = useSandboxEngine('recreated-children-state');

function resources(bucketName: string, options: { objectLock?: boolean; failingQueue?: boolean } = {}) {
  return {
    Bucket: {
      Type: 'AWS::S3::Bucket',
      Properties: { BucketName: bucketName, ...(options.objectLock ? { ObjectLockEnabled: true } : {}) },
    },
    Policy: {
      Type: 'AWS::S3::BucketPolicy',
      Properties: {
        Bucket: { Ref: 'Bucket' },
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Deny',
              Principal: '*',
              Action: 's3:*',
              Resource: { 'Fn::Sub': 'arn:aws:s3:::${Bucket}/*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ],
        },
      },
      ...(options.failingQueue ? { DependsOn: ['Queue'] } : {}),
    },
    ...(options.failingQueue
      ? { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: `${bucketName}-queue` } } }
      : {}),
  };
}

async function livePolicy(bucket: string): Promise<string | undefined> {
  const s3 = await sandbox.clients.client(S3Client, REGION);
  try {
    return (await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy;
  } catch {
    return undefined;
  }
}

async function records(stackName: string) {
  return (await sandbox.backend.store.read({ stackName, region: REGION }))!.document.resources;
}

const warnings = () => sandbox.events.flatMap((e) => (e.kind === 'warning' ? [e.message] : []));

describe('a fixed-name bucket re-created under the same name', () => {
  it('gets its bucket policy back: re-created without a delete, after the bucket', async () => {
    await sandbox.deploy('Children', resources('kept-bucket'));
    const before = await records('Children');
    expect(await livePolicy('kept-bucket')).toBeDefined();

    await sandbox.deploy('Children', resources('kept-bucket', { objectLock: true }), { replace: true });
    const after = await records('Children');
    expect(after.Bucket!.physicalId).toBe(before.Bucket!.physicalId);
    expect(after.Bucket!.properties).toMatchObject({ ObjectLockEnabled: true });
    const policyEvents = sandbox.events.flatMap((e) =>
      e.kind === 'resource' && e.logicalId === 'Policy' ? [`${e.action}:${e.status}`] : [],
    );
    expect(policyEvents).toEqual(['create:started', 'create:succeeded']);
    expect(after.Policy).toBeDefined();
    expect(JSON.parse((await livePolicy('kept-bucket'))!).Statement[0].Effect).toBe('Deny');
  });

  it('a restore that was attempted and failed keeps its record, and the warning names --recreate-via-cc-api', async () => {
    await sandbox.deploy('ChildFails', resources('fail-bucket'));
    const before = await records('ChildFails');
    await sandbox.addFault({
      service: 's3',
      operation: 'PutBucketPolicy',
      errorCode: 'MalformedPolicy',
      httpStatus: 400,
      message: 'injected',
    });
    const failure = await sandbox
      .deploy('ChildFails', resources('fail-bucket', { objectLock: true }), {
        replace: true,
        rollback: false,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    expect((await records('ChildFails')).Policy).toEqual(before.Policy);
    expect(warnings()).toContainEqual(expect.stringContaining('deploy with --recreate-via-cc-api Policy'));
  });

  it('a child whose restore never ran because the deploy failed first is dropped, and the next deploy creates it', async () => {
    await sandbox.deploy('ChildDropped', resources('drop-bucket'));
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    const failure = await sandbox
      .deploy('ChildDropped', resources('drop-bucket', { objectLock: true, failingQueue: true }), {
        replace: true,
        rollback: false,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    const afterFailure = await records('ChildDropped');
    expect(afterFailure.Bucket!.properties).toMatchObject({ ObjectLockEnabled: true });
    expect(afterFailure.Policy).toBeUndefined();
    expect(await livePolicy('drop-bucket')).toBeUndefined();

    await sandbox.deploy('ChildDropped', resources('drop-bucket', { objectLock: true, failingQueue: true }));
    expect((await records('ChildDropped')).Policy).toBeDefined();
    expect(await livePolicy('drop-bucket')).toBeDefined();
  });
});

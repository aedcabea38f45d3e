import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { defaultRegistry } from '../../src/toolkit/provider-wiring.js';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * A CREATE cdkd refused before anything was applied (another resource already holds its
 * explicit name) is not journaled at all (spec, `--revert-failed` per failed operation).
 */
useSandbox();
const clients = new AwsClients();
const REGION = 'us-east-1';
const stackName = 'Refused';
const ref = { stackName, region: REGION };
let backend: StateBackend;
let events: DeployEvent[] = [];

beforeAll(async () => {
  const s3 = await clients.s3();
  await s3.send(new CreateBucketCommand({ Bucket: 'refused-state' }));
  await s3.send(new CreateBucketCommand({ Bucket: 'already-taken' }));
  backend = await openStateBackend(clients, 'refused-state', 'cdkd');
});

async function engine(): Promise<Engine> {
  events = [];
  return createEngine({
    backend,
    clients,
    registry: defaultRegistry(),
    events: (event) => events.push(event),
    regions: [REGION],
  });
}

const identity = { stateName: stackName, stackName, region: REGION, accountId: '000000000000' };

/** The error codes along a failure's cause chain, outermost first. */
function codes(error: unknown): string[] {
  const out: string[] = [];
  for (let at = error; at instanceof Error; at = at.cause) {
    if ('code' in at && typeof at.code === 'string') out.push(at.code);
  }
  return out;
}

describe('a create refused because its explicit name is taken', () => {
  it('fails the deploy with NAMED_CREATE_COLLISION and leaves no journal entry for it', async () => {
    const template = {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue' },
        Bucket: { Type: 'AWS::S3::Bucket', DependsOn: 'Queue', Properties: { BucketName: 'already-taken' } },
      },
    };
    const failure = await (
      await engine()
    )
      .deploy({ ...identity, template }, { concurrency: 4, rollback: false })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(codes(failure)).toContain('NAMED_CREATE_COLLISION');

    const journal = await backend.journals.read(ref);
    const operations = journal!.document.segments.flatMap((segment) => segment.operations);
    expect(operations.map((op) => [op.logicalId, op.action, op.status])).toEqual([
      ['Queue', 'create', 'completed'],
    ]);

    // Nothing is left for --revert-failed to warn about: the rollback only reverts the queue.
    const result = await (
      await engine()
    ).rollback({
      stack: identity,
      revertFailed: true,
      orphan: new Set(),
      force: false,
      confirm: async () => true,
    });
    expect(result.exitCode).toBe(0);
    expect(events.filter((event) => event.kind === 'warning')).toEqual([]);
  });
});

import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { StackRequest } from '../../src/engine/stack-request.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { failureOf } from '../helpers/error-chain.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';

/**
 * Spec 002, "Resources that follow a recreated resource": the stateful-resource guard on the
 * executor's re-plan path, where a reader's re-resolved properties turn its update into a
 * replacement only once its target is recreated.
 */
useSandbox();
let backend: StateBackend;
let cloud: FakeCloud;
let stackCounter = 0;

/** The provider cannot update the table's Tags in place: a changed tag needs a new table. */
class TagsNeedNewTable extends FakeCloud {
  override providerCanUpdate(type?: string, changed?: readonly string[]): boolean {
    return !(type === 'AWS::DynamoDB::Table' && (changed ?? []).includes('Tags'));
  }
}

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'guard-paths' }));
  backend = await openStateBackend(clients, 'guard-paths', 'cdkd');
});

beforeEach(() => {
  cloud = new TagsNeedNewTable();
});

function engine() {
  return createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo(() => undefined),
    command: 'deploy',
    regions: ['us-east-1'],
  });
}

function stack(queueName: string, name: string, tablePolicy: Record<string, unknown> = {}): StackRequest {
  return {
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
        Table: {
          Type: 'AWS::DynamoDB::Table',
          Properties: {
            TableName: 'orders',
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
            Tags: [{ Key: 'queue', Value: { Ref: 'Queue' } }],
          },
          ...tablePolicy,
        },
      },
    },
  };
}

describe('a reader that the re-plan replaces once its target is recreated', () => {
  it('a stateful reader is refused mid-deploy with STATEFUL_REPLACE_BLOCKED naming it, the table untouched', async () => {
    const name = `Replan${++stackCounter}`;
    await (await engine()).deploy(stack('q1', name), { concurrency: 2 });
    const table = (await backend.store.read({ stackName: name, region: 'us-east-1' }))!.document.resources
      .Table!;
    cloud.calls.length = 0;
    const failure = await (
      await engine()
    )
      .deploy(stack('q2', name), { concurrency: 2, rollback: false })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const { codes, message } = failureOf(failure);
    expect(codes).toContain('STATEFUL_REPLACE_BLOCKED');
    expect(message).toContain('Table (AWS::DynamoDB::Table), a reader of Queue');
    expect(cloud.calls.filter((call) => call.logicalId === 'Table')).toEqual([]);
    expect(cloud.live.has(table.physicalId)).toBe(true);
  });

  it('--force-stateful-recreation covers it: the table is replaced', async () => {
    const name = `Replan${++stackCounter}`;
    await (await engine()).deploy(stack('q1', name), { concurrency: 2 });
    cloud.calls.length = 0;
    await (await engine()).deploy(stack('q2', name), { concurrency: 2, forceStatefulRecreation: true });
    expect(cloud.calls.filter((call) => call.logicalId === 'Table').map((call) => call.action)).toEqual([
      'create',
      'delete',
    ]);
  });

  it('a reader with UpdateReplacePolicy: Retain keeps its old resource and is not refused', async () => {
    const name = `Replan${++stackCounter}`;
    await (await engine()).deploy(stack('q1', name, { UpdateReplacePolicy: 'Retain' }), { concurrency: 2 });
    cloud.calls.length = 0;
    await (await engine()).deploy(stack('q2', name, { UpdateReplacePolicy: 'Retain' }), { concurrency: 2 });
    expect(cloud.calls.filter((call) => call.logicalId === 'Table').map((call) => call.action)).toEqual([
      'create',
    ]);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

function client(sandbox: Sandbox): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: sandbox.url,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
}

const table = {
  TableName: 'orders',
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' as const }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' as const }],
  BillingMode: 'PAY_PER_REQUEST' as const,
};

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i += 1) await new Promise((done) => setTimeout(done, 20));
}

describe('DynamoDB (dynalite behind the router)', () => {
  it('creates CREATING then ACTIVE, keeps streams, SSE and TTL, and answers AWS errors', async () => {
    const sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
    const dynamo = client(sandbox);
    try {
      const created = await dynamo.send(
        new CreateTableCommand({
          ...table,
          StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
        }),
      );
      expect(created.TableDescription).toMatchObject({
        TableStatus: 'CREATING',
        TableArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/orders',
        LatestStreamArn: expect.stringMatching(
          /^arn:aws:dynamodb:eu-west-1:123456789012:table\/orders\/stream\//,
        ),
      });
      expect(created.TableDescription!.TableId).toBeDefined();
      expect((await failure(dynamo.send(new CreateTableCommand(table)))).name).toBe('ResourceInUseException');
      await until(
        async () =>
          (await dynamo.send(new DescribeTableCommand({ TableName: 'orders' }))).Table!.TableStatus ===
          'ACTIVE',
      );

      expect(
        (
          await failure(
            dynamo.send(
              new UpdateTableCommand({
                TableName: 'orders',
                StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
              }),
            ),
          )
        ).name,
      ).toBe('ValidationException');
      await dynamo.send(new UpdateTableCommand({ TableName: 'orders', SSESpecification: { Enabled: true } }));
      expect(
        (await dynamo.send(new DescribeTableCommand({ TableName: 'orders' }))).Table!.SSEDescription,
      ).toMatchObject({
        Status: 'ENABLED',
        SSEType: 'KMS',
      });

      await dynamo.send(
        new UpdateTimeToLiveCommand({
          TableName: 'orders',
          TimeToLiveSpecification: { Enabled: true, AttributeName: 'ttl' },
        }),
      );
      expect(
        (await dynamo.send(new DescribeTimeToLiveCommand({ TableName: 'orders' }))).TimeToLiveDescription,
      ).toEqual({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: 'ttl',
      });
      expect((await failure(dynamo.send(new DescribeTimeToLiveCommand({ TableName: 'missing' })))).name).toBe(
        'ResourceNotFoundException',
      );
      await until(async () =>
        JSON.stringify((await admin(sandbox, 'GET', 'inventory')).json).includes('"orders"'),
      );
      expect((await admin(sandbox, 'GET', 'inventory')).json.dynamodb['AWS::DynamoDB::Table']).toMatchObject([
        { id: 'orders', region: 'eu-west-1' },
      ]);

      await dynamo.send(new DeleteTableCommand({ TableName: 'orders' }));
      await until(async () =>
        dynamo.send(new DescribeTableCommand({ TableName: 'orders' })).then(
          () => false,
          () => true,
        ),
      );
      expect((await failure(dynamo.send(new DescribeTableCommand({ TableName: 'orders' })))).name).toBe(
        'ResourceNotFoundException',
      );
    } finally {
      dynamo.destroy();
      await sandbox.stop();
    }
  });

  it('persists tables under the data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cdkd-dynamo-'));
    try {
      let sandbox = await startSandbox({ port: 0, dataDir });
      let dynamo = client(sandbox);
      await dynamo.send(new CreateTableCommand(table));
      dynamo.destroy();
      await sandbox.stop();
      sandbox = await startSandbox({ port: 0, dataDir });
      dynamo = client(sandbox);
      expect((await dynamo.send(new DescribeTableCommand({ TableName: 'orders' }))).Table!.TableName).toBe(
        'orders',
      );
      expect((await admin(sandbox, 'GET', 'inventory')).json.dynamodb['AWS::DynamoDB::Table']).toMatchObject([
        { id: 'orders', region: 'eu-west-1' },
      ]);
      dynamo.destroy();
      await sandbox.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

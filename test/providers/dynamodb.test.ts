import { setTimeout as realSleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient, ListTagsOfResourceCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { Clock } from '../../src/providers/clock.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { DYNAMODB_REF_ATTRIBUTES } from '../../src/providers/dynamodb/ref-attributes.js';
import { TableProvider } from '../../src/providers/dynamodb/table.js';
import { tableUpdateSteps } from '../../src/providers/dynamodb/table-update.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
const ACCOUNT = '000000000000';
const type = 'AWS::DynamoDB::Table';
let context: ProviderContext;
let dynamo: DynamoDBClient;

/** Virtual time: each poll waits 10 ms for real, so CREATING → ACTIVE is seen quickly. */
const clock: Clock & { sleeps: number } = {
  sleeps: 0,
  now: () => 0,
  sleep: async () => {
    clock.sleeps += 1;
    await realSleep(10);
  },
};
const tables = new TableProvider({ clock });

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'DynStack' };
  dynamo = await clients.client(DynamoDBClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox.current));

const base = {
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
};
const withIndexKey = [...base.AttributeDefinitions, { AttributeName: 'gk', AttributeType: 'S' }];

describe('AWS::DynamoDB::Table', () => {
  it('creates (waiting ACTIVE), updates in place, reads back and deletes (waiting gone)', async () => {
    const properties = {
      ...base,
      AttributeDefinitions: withIndexKey,
      TableName: 'orders',
      ProvisionedThroughput: { ReadCapacityUnits: '5', WriteCapacityUnits: 5 },
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byG',
          KeySchema: [{ AttributeName: 'gk', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
          ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
        },
      ],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
      Tags: [{ Key: 'team', Value: 'a' }],
    };
    const created = await tables.create({ logicalId: 'Orders', type, properties }, context);
    expect(created.physicalId).toBe('orders');
    expect(created.creationIdentity!.TableId).toEqual(expect.any(String));
    expect((await dynamo.send(new DescribeTableCommand({ TableName: 'orders' }))).Table!.TableStatus).toBe(
      'ACTIVE',
    );

    const request = { logicalId: 'Orders', type, physicalId: 'orders' };
    const more = {
      ...properties,
      ProvisionedThroughput: { ReadCapacityUnits: 6, WriteCapacityUnits: 6 },
      Tags: [{ Key: 'team', Value: 'b' }],
    };
    await tables.update({ ...request, properties: more, previousProperties: properties }, context);
    const next = {
      ...more,
      BillingMode: 'PAY_PER_REQUEST',
      ProvisionedThroughput: undefined,
      GlobalSecondaryIndexes: more.GlobalSecondaryIndexes.map(
        ({ ProvisionedThroughput: _, ...rest }) => rest,
      ),
    };
    await tables.update({ ...request, properties: next, previousProperties: more }, context);
    const read = await tables.read({ ...request, properties: next }, context);
    expect(read!.properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [{ IndexName: 'byG' }],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
      Tags: [{ Key: 'team', Value: 'b' }],
      // What a template may set explicitly reads back too, off as it is.
      DeletionProtectionEnabled: false,
      SSESpecification: { SSEEnabled: false },
    });
    expect(read!.creationIdentity).toEqual(created.creationIdentity);

    await tables.delete({ ...request, properties: next }, context);
    expect(await tables.read({ ...request, properties: next }, context)).toBeUndefined();
    await tables.delete({ ...request, properties: next }, context);
  });

  it('plans index, stream and TTL changes as DynamoDB takes them', () => {
    const gsi = (projection: string) => ({
      IndexName: 'i',
      KeySchema: [{ AttributeName: 'gk', KeyType: 'HASH' }],
      Projection: { ProjectionType: projection },
    });
    const before = {
      ...base,
      AttributeDefinitions: withIndexKey,
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [gsi('ALL')],
      StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
      TimeToLiveSpecification: { AttributeName: 'a', Enabled: true },
    };
    const after = {
      ...before,
      GlobalSecondaryIndexes: [gsi('KEYS_ONLY')],
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      TimeToLiveSpecification: { AttributeName: 'b', Enabled: 'true' },
    };
    expect(tableUpdateSteps(before, after)).toEqual([
      { kind: 'table', input: { GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'i' } }] } },
      {
        kind: 'table',
        input: {
          AttributeDefinitions: withIndexKey,
          GlobalSecondaryIndexUpdates: [{ Create: gsi('KEYS_ONLY') }],
        },
      },
      { kind: 'table', input: { StreamSpecification: { StreamEnabled: false } } },
      { kind: 'table', input: { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } } },
      { kind: 'ttl', spec: { AttributeName: 'a', Enabled: false } },
      { kind: 'ttl', spec: { AttributeName: 'b', Enabled: true } },
    ]);
    expect(tableUpdateSteps(before, before)).toEqual([]);
  });

  it('says which changes replace and which properties it cannot send', () => {
    expect(tables.canUpdateInPlace(type, ['BillingMode', 'GlobalSecondaryIndexes', 'Tags'])).toBe(true);
    for (const createOnly of ['TableName', 'KeySchema', 'LocalSecondaryIndexes']) {
      expect(tables.canUpdateInPlace(type, [createOnly])).toBe(false);
    }
    expect(
      tables.uncoveredProperties(type, {
        ...base,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    ).toEqual(['PointInTimeRecoverySpecification']);
  });

  it('a table that never became ACTIVE was still made: reported with its identity, taken back on retry', async () => {
    const request = {
      logicalId: 'Stuck',
      type,
      properties: { ...base, BillingMode: 'PAY_PER_REQUEST' },
      idempotencyToken: 'ddb-stuck',
    };
    await failNext(sandbox.current, 'dynamodb', 'DescribeTable');
    const made = await madeError(tables.create(request, context));
    expect(made.made.physicalId).toMatch(/^DynStack-Stuck-/);
    const live = await tables.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(live).toBeDefined();
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    // The retry of the same create waits on that table instead of making a second one.
    const retried = await tables.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    expect(retried.creationIdentity).toEqual(made.made.creationIdentity);
  });

  it('reports the table made when its TTL step fails', async () => {
    const properties = {
      ...base,
      BillingMode: 'PAY_PER_REQUEST',
      TableName: 'ttl-refused',
      TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true },
    };
    await failNext(sandbox.current, 'dynamodb', 'UpdateTimeToLive');
    const made = await madeError(tables.create({ logicalId: 'Ttl', type, properties }, context));
    expect(made.made.physicalId).toBe('ttl-refused');
    const live = await tables.read(
      { logicalId: 'Ttl', type, properties, physicalId: 'ttl-refused' },
      context,
    );
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
  });

  it('names an unnamed table within 255 characters', async () => {
    const created = await tables.create(
      { logicalId: 'T'.repeat(300), type, properties: { ...base, BillingMode: 'PAY_PER_REQUEST' } },
      { ...context, stackName: 'S'.repeat(300) },
    );
    expect(created.physicalId).toHaveLength(255);
    expect(created.physicalId).toMatch(/^S+-T+-[A-Z0-9]{12}$/);
  });

  it.each(Object.entries(DYNAMODB_REF_ATTRIBUTES))('Ref and GetAtt row %s', async (_type, row) => {
    const created = await tables.create(
      {
        logicalId: 'Row',
        type,
        properties: {
          ...base,
          TableName: 'ref-row',
          BillingMode: 'PAY_PER_REQUEST',
          StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
        },
      },
      context,
    );
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    expect(Object.keys(created.attributes).sort()).toEqual(Object.keys(row.attributes).sort());
    const prefix = `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/ref-row`;
    expect(created.attributes.Arn).toBe(prefix);
    expect(created.attributes.StreamArn).toMatch(new RegExp(`^${prefix}/stream/.+`));
  });
});

describe('through the engine', () => {
  it('a KeySchema change replaces the table: new one made, old one deleted', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'dynamodb-engine-state' }));
    const backend = await openStateBackend(clients, 'dynamodb-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registry.registerSdk(type, tables);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (key: string) => ({
      Resources: {
        Table: {
          Type: type,
          Properties: {
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
            KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
          },
        },
      },
    });
    const request = {
      stateName: 'DynReplace',
      stackName: 'DynReplace',
      region: 'us-east-1',
      accountId: ACCOUNT,
    };
    const options = { concurrency: 2, forceStatefulRecreation: true };
    await engine.deploy({ ...request, template: template('a') }, options);
    const first = (await backend.store.read({ stackName: 'DynReplace', region: 'us-east-1' }))!.document
      .resources.Table!.physicalId;
    await engine.deploy({ ...request, template: template('b') }, options);
    const second = (await backend.store.read({ stackName: 'DynReplace', region: 'us-east-1' }))!.document
      .resources.Table!.physicalId;
    expect(second).not.toBe(first);
    expect(
      await tables.read({ logicalId: 'Table', type, physicalId: first, properties: {} }, context),
    ).toBeUndefined();
    const live = await dynamo.send(new DescribeTableCommand({ TableName: second }));
    expect(live.Table!.KeySchema).toEqual([{ AttributeName: 'b', KeyType: 'HASH' }]);
    expect(
      (await dynamo.send(new ListTagsOfResourceCommand({ ResourceArn: live.Table!.TableArn }))).Tags ?? [],
    ).toEqual([]);
  });
});

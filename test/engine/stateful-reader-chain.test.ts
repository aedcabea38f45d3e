import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 002, "Readers of the target", end to end on the sandbox: a stateful reader replaced
 * through a chain of create-only references is refused before any resource is touched.
 */
const sandbox = useSandboxEngine('reader-chain-state');

function template(stackName: string, queueName: string, tableRetain = false) {
  const untaken = `${stackName.toLowerCase()}-untaken`;
  return {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
    // TableName is create-only: a new queue name is a new table.
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: { 'Fn::GetAtt': ['Queue', 'QueueName'] },
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
      ...(tableRetain ? { UpdateReplacePolicy: 'Retain' } : {}),
    },
    // A false Condition removes it from the deploy: exempt.
    Gated: {
      Type: 'AWS::DynamoDB::Table',
      Condition: 'Never',
      Properties: {
        TableName: { 'Fn::GetAtt': ['Queue', 'QueueName'] },
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    },
    // Reads the queue only on an untaken Fn::If arm: exempt.
    Untaken: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: { 'Fn::If': ['Never', { 'Fn::GetAtt': ['Queue', 'QueueName'] }, untaken] },
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    },
  };
}

async function deploy(stackName: string, queueName: string, options: Record<string, unknown> = {}) {
  const engine = await sandbox.engine();
  return engine.deploy(
    {
      stateName: stackName,
      stackName,
      region: REGION,
      accountId: '000000000000',
      template: {
        Conditions: { Never: { 'Fn::Equals': ['a', 'b'] } },
        Resources: template(stackName, queueName, options.tableRetain === true),
      },
    },
    { concurrency: 4, ...options },
  );
}

describe('a stateful reader replaced through a create-only chain', () => {
  it('is refused with STATEFUL_REPLACE_BLOCKED naming the reader, before anything is touched', async () => {
    await deploy('Chain', 'chain-one');
    const failure = await deploy('Chain', 'chain-two').then(
      () => undefined,
      (error: unknown) => error,
    );
    const { codes, message } = failureOf(failure);
    expect(codes).toEqual(['STATEFUL_REPLACE_BLOCKED']);
    expect(message).toContain('Table (AWS::DynamoDB::Table), a reader of Queue');
    expect(message).not.toContain('Untaken');
    expect(message).not.toContain('Gated');
    const sqs = await sandbox.clients.client(SQSClient, REGION);
    const queues = (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'chain-' }))).QueueUrls ?? [];
    expect(queues.map((url) => url.split('/').pop())).toEqual(['chain-one']);
  });

  it('a reader with UpdateReplacePolicy: Retain is not refused: the deploy replaces it and keeps the old table', async () => {
    await deploy('ChainRetain', 'retain-one', { tableRetain: true });
    await deploy('ChainRetain', 'retain-two', { tableRetain: true });
    const dynamodb = await sandbox.clients.client(DynamoDBClient, REGION);
    const tables = (await dynamodb.send(new ListTablesCommand({}))).TableNames ?? [];
    expect(tables.filter((name) => name.startsWith('retain-')).sort()).toEqual(['retain-one', 'retain-two']);
  });
});

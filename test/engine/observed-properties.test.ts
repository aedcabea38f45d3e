import { CloudWatchLogsClient, PutRetentionPolicyCommand } from '@aws-sdk/client-cloudwatch-logs';
import { describe, expect, it } from 'vitest';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

// observedProperties: what a provider read back after its last write, stored beside what it
// applied, taken from the write's own responses: a deploy makes no extra call for it.
const h = useSandboxEngine('observed-properties');

async function calls(prefix: string): Promise<Record<string, number>> {
  const response = await fetch(`${h.url}/_sandbox/calls`);
  const all = ((await response.json()) as { calls: Record<string, { count: number }> }).calls;
  return Object.fromEntries(
    Object.entries(all)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key, value.count]),
  );
}
const resetCalls = () => fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });

async function record(stack: string, logicalId: string) {
  return (await h.backend.store.read({ stackName: stack, region: REGION }))?.document.resources[logicalId];
}

const logGroup = (name: string, properties: Record<string, unknown> = {}) => ({
  Logs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: name, ...properties } },
});

describe('observedProperties from the write itself', () => {
  it('a log group create stores its read-back with the calls it always made, and no more', async () => {
    await resetCalls();
    await h.deploy('ObservedLogs', logGroup('/observed/a', { RetentionInDays: 30 }));
    // One DescribeLogGroups is the name-collision lookup an explicit name costs (spec 002).
    expect(await calls('logs:')).toEqual({
      'logs:CreateLogGroup': 1,
      'logs:DescribeLogGroups': 2,
      'logs:PutRetentionPolicy': 1,
    });
    const stored = await record('ObservedLogs', 'Logs');
    expect(stored?.properties).toEqual({ LogGroupName: '/observed/a', RetentionInDays: 30 });
    expect(stored?.observedProperties).toEqual({ LogGroupName: '/observed/a', RetentionInDays: 30 });
  });

  it('an update reads back what AWS holds, a retention set out of band included', async () => {
    await h.deploy('OutOfBand', logGroup('/observed/b'));
    expect((await record('OutOfBand', 'Logs'))?.observedProperties).toMatchObject({ RetentionInDays: 0 });
    const logs = await h.clients.client(CloudWatchLogsClient, REGION);
    await logs.send(new PutRetentionPolicyCommand({ logGroupName: '/observed/b', retentionInDays: 7 }));
    await resetCalls();
    await h.deploy('OutOfBand', logGroup('/observed/b', { Tags: [{ Key: 'team', Value: 'a' }] }));
    expect(await calls('logs:')).toEqual({ 'logs:DescribeLogGroups': 1, 'logs:TagResource': 1 });
    expect((await record('OutOfBand', 'Logs'))?.observedProperties).toMatchObject({ RetentionInDays: 7 });
  });

  it('the retention rule reads the read-back: an out-of-band retention refuses the rename without a probe', async () => {
    await resetCalls();
    await expect(
      h.deploy('OutOfBand', logGroup('/observed/b-renamed', { Tags: [{ Key: 'team', Value: 'a' }] })),
    ).rejects.toMatchObject({ code: 'STATEFUL_REPLACE_BLOCKED' });
    expect(await calls('logs:DescribeLogStreams')).toEqual({});
  });

  it('a table create keeps to its create and waits: no read of TTL or tags for the read-back', async () => {
    await resetCalls();
    await h.deploy('ObservedTable', {
      Table: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      },
    });
    const made = await calls('dynamodb:');
    expect(made['dynamodb:CreateTable']).toBe(1);
    expect(Object.keys(made).sort()).toEqual(['dynamodb:CreateTable', 'dynamodb:DescribeTable']);
    expect((await record('ObservedTable', 'Table'))?.observedProperties).toMatchObject({
      DeletionProtectionEnabled: false,
    });
  });
});

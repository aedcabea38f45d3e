import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The built CLI against the sandbox: the stateful-resource guard runs for every stack of a
// run before any of them is touched, and cdkd diff raises the refusals a deploy would.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

const table = (tableName: string) => ({
  Type: 'AWS::DynamoDB::Table',
  Properties: {
    TableName: tableName,
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
  },
});

/** `First` (a queue) and `Second` (a table), Second deploying after First. */
function app(delaySeconds: number, tableName: string): string {
  const dir = tempDir();
  writeAssembly(dir, [
    {
      id: 'First',
      template: {
        Resources: {
          Queue: {
            Type: 'AWS::SQS::Queue',
            Properties: { QueueName: 'first-queue', DelaySeconds: delaySeconds },
          },
        },
      },
    },
    { id: 'Second', dependencies: ['First'], template: { Resources: { Table: table(tableName) } } },
  ]);
  return dir;
}

async function firstQueueDelay(): Promise<string | undefined> {
  const sqs = await new AwsClients().client(SQSClient, 'us-east-1');
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'first-queue' }));
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['DelaySeconds'] }),
  );
  return Attributes?.DelaySeconds;
}

beforeAll(async () => {
  expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
  const deployed = await runCli(['deploy', '--all', '-a', app(1, 'orders-v1')], { env: env() });
  expect(deployed.code, deployed.stderr).toBe(0);
});

describe('a multi-stack deploy whose second stack would replace a stateful resource', () => {
  it('is refused with STATEFUL_REPLACE_BLOCKED before the first stack is touched', async () => {
    const result = await runCli(['deploy', '--all', '-a', app(5, 'orders-v2')], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('STATEFUL_REPLACE_BLOCKED');
    expect(result.stderr).toContain('Table (AWS::DynamoDB::Table)');
    expect(await firstQueueDelay()).toBe('1');
  });

  it('cdkd diff raises the same refusal, and plans the replacement under --force-stateful-recreation', async () => {
    const dir = app(1, 'orders-v2');
    const refused = await runCli(['diff', '--all', '-a', dir], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('STATEFUL_REPLACE_BLOCKED');
    const forced = await runCli(['diff', '--all', '-a', dir, '--force-stateful-recreation'], { env: env() });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/Table.*replace/i);
  });
});

describe('a named resource moved from the first stack to the second in one run', () => {
  it('is not refused by the pre-flight: the first stack frees the name before the second plans its create', async () => {
    const moving = { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'moving-topic' } };
    const assembly = (inFirst: boolean) => {
      const dir = tempDir();
      writeAssembly(dir, [
        {
          id: 'MoveFrom',
          template: { Resources: inFirst ? { Moving: moving } : { Other: { Type: 'AWS::SQS::Queue' } } },
        },
        {
          id: 'MoveTo',
          dependencies: ['MoveFrom'],
          template: { Resources: inFirst ? { Other: { Type: 'AWS::SQS::Queue' } } : { Moving: moving } },
        },
      ]);
      return dir;
    };
    const first = await runCli(['deploy', '--all', '-a', assembly(true)], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    const moved = await runCli(['deploy', '--all', '-a', assembly(false)], { env: env() });
    expect(moved.code, moved.stderr).toBe(0);
  });
});

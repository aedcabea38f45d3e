import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });

/** The CDK CLI's flags people type from habit: accepted, and cdkd says what it does instead. */
describe('flags typed from the CDK CLI', () => {
  let app: string;
  beforeAll(async () => {
    app = tempDir();
    writeAssembly(app, [
      { id: 'Base', template: { Resources: { Q: { Type: 'AWS::SQS::Queue' } } } },
      { id: 'Top', template: { Resources: { T: { Type: 'AWS::SNS::Topic' } } }, dependencies: ['Base'] },
    ]);
    expect((await cli(['bootstrap'])).code).toBe(0);
  }, 120_000);

  it('deploy --method and --hotswap run an ordinary deploy, with a note saying so', async () => {
    const result = await cli(['deploy', '--all', '-a', app, '--method', 'change-set', '--hotswap']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Note: --method change-set is ignored: cdkd makes no change set');
    expect(result.stderr).toContain(
      'Note: --hotswap: cdkd needs no hotswap; this is an ordinary cdkd deploy',
    );
    const plain = await cli(['deploy', '--all', '-a', app]);
    expect(plain.stderr).not.toContain('Note: --');
  });

  it('synth -e and destroy -e act on the named stack alone; destroy -f (--force) asks nothing', async () => {
    const synth = await cli(['synth', 'Top', '-e', '-a', app]);
    expect(synth.code, synth.stderr).toBe(0);
    expect(synth.stdout).toContain('AWS::SNS::Topic');
    expect(synth.stdout).not.toContain('AWS::SQS::Queue');
    const unconfirmed = await cli(['destroy', 'Top', '-e', '-a', app]);
    expect(unconfirmed.stderr).toContain('CONFIRMATION_REQUIRED');
    const destroyed = await cli(['destroy', 'Top', '-e', '-a', app, '-f']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    const left = await cli(['state', 'list']);
    expect(left.stdout).toContain('Base');
    expect(left.stdout).not.toContain('Top');
  });

  it('deploy --force writes the recorded properties back where AWS holds others; --dry-run only names them', async () => {
    const repairApp = tempDir();
    writeAssembly(repairApp, [
      {
        id: 'Repair',
        template: { Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 } } } },
      },
    ]);
    expect((await cli(['deploy', '-a', repairApp])).code).toBe(0);
    const state = JSON.parse((await cli(['state', 'show', 'Repair', '--json'])).stdout);
    const QueueUrl = state.resources.Q.physicalId as string;
    const sqs = new SQSClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
    const timeout = async () =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['VisibilityTimeout'] })))
        .Attributes?.VisibilityTimeout;
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: { VisibilityTimeout: '99' } }));

    expect((await cli(['deploy', '-a', repairApp])).code).toBe(0);
    expect(await timeout()).toBe('99');
    const dryRun = await cli(['deploy', '-a', repairApp, '--force', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toContain('Repair: --force would re-apply Q (AWS::SQS::Queue): VisibilityTimeout.');
    expect(await timeout()).toBe('99');
    const forced = await cli(['deploy', '-a', repairApp, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Repair: --force re-applied Q (AWS::SQS::Queue): VisibilityTimeout.');
    expect(await timeout()).toBe('30');
    const again = await cli(['deploy', '-a', repairApp, '--force']);
    expect(again.stderr).toContain('Repair: --force found every resource as recorded');
    expect((await cli(['destroy', '-a', repairApp, '--yes'])).code).toBe(0);
  });

  it("publishes each stack event to the app's notificationArns and --notification-arns, as CloudFormation does", async () => {
    const endpoint = sandbox.current.url;
    const sns = new SNSClient({ endpoint, region: 'us-east-1' });
    const sqs = new SQSClient({ endpoint, region: 'us-east-1' });
    const inbox = async (name: string) => {
      const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: name }));
      const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-inbox` }));
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
      );
      // As on AWS, a queue takes a topic's messages only when its policy lets SNS send them.
      const Policy = JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'sns.amazonaws.com' },
            Action: 'sqs:SendMessage',
            Resource: Attributes!.QueueArn,
            Condition: { ArnEquals: { 'aws:SourceArn': TopicArn } },
          },
        ],
      });
      await sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: { Policy } }));
      await sns.send(
        new SubscribeCommand({
          TopicArn,
          Protocol: 'sqs',
          Endpoint: Attributes!.QueueArn,
          Attributes: { RawMessageDelivery: 'true' },
        }),
      );
      const statuses = async () => {
        const received = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        return (received.Messages ?? []).map((message) => {
          const field = (key: string) => new RegExp(`${key}='([^']*)'`).exec(message.Body!)?.[1];
          return `${field('LogicalResourceId')} ${field('ResourceStatus')}`;
        });
      };
      return { TopicArn: TopicArn!, statuses };
    };
    const fromApp = await inbox('stack-events');
    const fromFlag = await inbox('stack-events-flag');
    const notifiedApp = tempDir();
    const write = (visibility: number) =>
      writeAssembly(notifiedApp, [
        {
          id: 'Notified',
          notificationArns: [fromApp.TopicArn],
          template: {
            Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: visibility } } },
          },
        },
      ]);
    write(30);
    expect((await cli(['deploy', '-a', notifiedApp])).code).toBe(0);
    expect(await fromApp.statuses()).toEqual([
      'Notified CREATE_IN_PROGRESS',
      'Q CREATE_IN_PROGRESS',
      'Q CREATE_COMPLETE',
      'Notified CREATE_COMPLETE',
    ]);

    write(40);
    const updated = await cli(['deploy', '-a', notifiedApp, '--notification-arns', fromFlag.TopicArn]);
    expect(updated.code, updated.stderr).toBe(0);
    const updateEvents = [
      'Notified UPDATE_IN_PROGRESS',
      'Q UPDATE_IN_PROGRESS',
      'Q UPDATE_COMPLETE',
      'Notified UPDATE_COMPLETE',
    ];
    expect(await fromFlag.statuses()).toEqual(updateEvents);
    expect(await fromApp.statuses()).toEqual(updateEvents);

    write(50);
    const missing = 'arn:aws:sns:us-east-1:000000000000:no-such-topic';
    const refused = await cli(['deploy', '-a', notifiedApp, '--notification-arns', missing]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('NOTIFICATION_TOPIC_NOT_FOUND');
    const state = JSON.parse((await cli(['state', 'show', 'Notified', '--json'])).stdout);
    expect(state.resources.Q.properties.VisibilityTimeout).toBe(40);
    expect((await cli(['destroy', '-a', notifiedApp, '--yes'])).code).toBe(0);
  });

  it('deploy reuses the parameter values of the last deploy unless --no-previous-parameters', async () => {
    const parameterApp = tempDir();
    writeAssembly(parameterApp, [
      {
        id: 'Carried',
        template: {
          Parameters: { Delay: { Type: 'Number', Default: 0 }, Retention: { Type: 'Number' } },
          Resources: {
            Q: {
              Type: 'AWS::SQS::Queue',
              Properties: {
                DelaySeconds: { Ref: 'Delay' },
                MessageRetentionPeriod: { Ref: 'Retention' },
              },
            },
          },
        },
      },
    ]);
    const properties = async () => {
      const { DelaySeconds, MessageRetentionPeriod } = JSON.parse(
        (await cli(['state', 'show', 'Carried', '--json'])).stdout,
      ).resources.Q.properties;
      return [String(DelaySeconds), String(MessageRetentionPeriod)];
    };
    const first = await cli([
      'deploy',
      '-a',
      parameterApp,
      '--parameters',
      'Delay=5',
      '--parameters',
      'Retention=600',
    ]);
    expect(first.code, first.stderr).toBe(0);

    const again = await cli(['deploy', '-a', parameterApp]);
    expect(again.code, again.stderr).toBe(0);
    expect(await properties()).toEqual(['5', '600']);

    const withoutRequired = await cli(['deploy', '-a', parameterApp, '--no-previous-parameters']);
    expect(withoutRequired.code).toBe(1);
    expect(withoutRequired.stderr).toContain('Parameters with no value and no Default: Carried: Retention');
    const defaults = await cli([
      'deploy',
      '-a',
      parameterApp,
      '--no-previous-parameters',
      '--parameters',
      'Retention=900',
    ]);
    expect(defaults.code, defaults.stderr).toBe(0);
    expect(await properties()).toEqual(['0', '900']);
    expect((await cli(['destroy', '-a', parameterApp, '--yes'])).code).toBe(0);
  });
});

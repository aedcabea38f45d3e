import {
  CreateEventBusCommand,
  DeleteEventBusCommand,
  DeleteRuleCommand,
  EventBridgeClient,
  PutRuleCommand,
  PutTargetsCommand,
} from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { admin, failure } from './helpers.js';

let sandbox: Sandbox;
let events: EventBridgeClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: '123456789012' });
  events = new EventBridgeClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  events.destroy();
  await sandbox.stop();
});

const target = (id: string) => ({ Id: id, Arn: `arn:aws:sqs:us-east-1:123456789012:${id}` });

describe('EventBridge in the sandbox', () => {
  it('names rule ARNs by bus and lists buses and rules in the inventory', async () => {
    const bus = await events.send(new CreateEventBusCommand({ Name: 'custom' }));
    expect(bus.EventBusArn).toBe('arn:aws:events:us-east-1:123456789012:event-bus/custom');
    const onDefault = await events.send(
      new PutRuleCommand({ Name: 'r', ScheduleExpression: 'rate(1 hour)' }),
    );
    expect(onDefault.RuleArn).toBe('arn:aws:events:us-east-1:123456789012:rule/r');
    const onCustom = await events.send(
      new PutRuleCommand({ Name: 'r', EventBusName: 'custom', EventPattern: '{"source":["a"]}' }),
    );
    expect(onCustom.RuleArn).toBe('arn:aws:events:us-east-1:123456789012:rule/custom/r');
    const inventory = (await admin(sandbox, 'GET', 'inventory')).json.events;
    expect(inventory['AWS::Events::EventBus']).toContainEqual(expect.objectContaining({ id: 'custom' }));
    expect(inventory['AWS::Events::Rule']).toContainEqual(expect.objectContaining({ id: onCustom.RuleArn }));
  });

  it('answers with the AWS error codes', async () => {
    await events.send(new CreateEventBusCommand({ Name: 'dup' }));
    expect(await failure(events.send(new CreateEventBusCommand({ Name: 'dup' })))).toMatchObject({
      name: 'ResourceAlreadyExistsException',
      status: 400,
    });
    expect((await failure(events.send(new DeleteEventBusCommand({ Name: 'default' })))).name).toBe(
      'ValidationException',
    );
    expect(
      (
        await failure(
          events.send(new PutRuleCommand({ Name: 'x', EventBusName: 'nope', EventPattern: '{}' })),
        )
      ).name,
    ).toBe('ResourceNotFoundException');
    expect((await failure(events.send(new PutRuleCommand({ Name: 'x' })))).name).toBe('ValidationException');
    expect((await failure(events.send(new PutRuleCommand({ Name: 'x', EventPattern: '[' })))).name).toBe(
      'InvalidEventPatternException',
    );
    expect(
      (await failure(events.send(new PutTargetsCommand({ Rule: 'none', Targets: [target('a')] })))).name,
    ).toBe('ResourceNotFoundException');
    await events.send(new PutRuleCommand({ Name: 'busy', EventPattern: '{"source":["a"]}' }));
    await events.send(
      new PutTargetsCommand({ Rule: 'busy', Targets: ['a', 'b', 'c', 'd', 'e'].map(target) }),
    );
    expect(
      (await failure(events.send(new PutTargetsCommand({ Rule: 'busy', Targets: [target('f')] })))).name,
    ).toBe('LimitExceededException');
    expect((await failure(events.send(new DeleteRuleCommand({ Name: 'busy' })))).name).toBe(
      'ValidationException',
    );
  });
});

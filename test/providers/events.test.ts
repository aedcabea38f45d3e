import { EventBridgeClient, ListTargetsByRuleCommand } from '@aws-sdk/client-eventbridge';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import { attributesOf } from '../../src/resource-types/schemas.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { EventBusProvider } from '../../src/providers/events/event-bus.js';
import { registerEvents } from '../../src/providers/events/index.js';
import { EVENTS_REF_ATTRIBUTES } from '../../src/providers/events/ref-attributes.js';
import { RuleProvider, ruleLocation } from '../../src/providers/events/rule.js';
import { targetChanges } from '../../src/providers/events/targets.js';
import { ResourceMadeError, type ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
const ACCOUNT = '000000000000';
const buses = new EventBusProvider();
const rules = new RuleProvider();
let context: ProviderContext;
let events: EventBridgeClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'EvStack' };
  events = await clients.client(EventBridgeClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox.current));

const fn = (name: string) => `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${name}`;

describe('AWS::Events::EventBus', () => {
  it('creates, updates in place, reads back and deletes', async () => {
    const type = 'AWS::Events::EventBus';
    const properties = { Name: 'orders', Description: 'first', Tags: [{ Key: 'a', Value: '1' }] };
    const created = await buses.create({ logicalId: 'Bus', type, properties }, context);
    expect(created.physicalId).toBe('orders');
    const request = { logicalId: 'Bus', type, physicalId: 'orders' };
    const next = { ...properties, Description: 'second', Tags: [{ Key: 'b', Value: '2' }] };
    await buses.update({ ...request, properties: next, previousProperties: properties }, context);
    expect((await buses.read({ ...request, properties: next }, context))!.properties).toEqual(next);
    expect(buses.canUpdateInPlace(type, ['Description', 'Tags', 'KmsKeyIdentifier'])).toBe(true);
    expect(buses.canUpdateInPlace(type, ['Name'])).toBe(false);
    expect(buses.uncoveredProperties(type, { Name: 'x', Policy: {} })).toEqual(['Policy']);
    await buses.delete({ ...request, properties: next }, context);
    expect(await buses.read({ ...request, properties: next }, context)).toBeUndefined();
    await buses.delete({ ...request, properties: next }, context);
  });

  it('reports the bus made when its read-back fails; the retry takes it back', async () => {
    const type = 'AWS::Events::EventBus';
    const request = {
      logicalId: 'Unread',
      type,
      properties: { Name: 'unread' },
      idempotencyToken: 'bus-unread',
    };
    await failNext(sandbox.current, 'events', 'DescribeEventBus');
    const made = await madeError(buses.create(request, context));
    // No creation identity: DescribeEventBus is what gives it.
    expect(made.made).toEqual({ physicalId: 'unread' });
    const live = await buses.read({ ...request, physicalId: 'unread' }, context);
    expect(live).toBeDefined();
    const retried = await buses.create(request, context);
    expect(retried.physicalId).toBe('unread');
    expect(retried.creationIdentity).toEqual(live!.creationIdentity);
  });
});

describe('AWS::Events::Rule', () => {
  it('creates with targets, updates rule and targets in place, reads back and deletes', async () => {
    const type = 'AWS::Events::Rule';
    const properties = {
      EventPattern: { source: ['app'] },
      Targets: [
        { Id: 'one', Arn: fn('one') },
        { Id: 'two', Arn: fn('two') },
      ],
    };
    const created = await rules.create({ logicalId: 'OnOrder', type, properties }, context);
    expect(created.physicalId).toMatch(
      /^arn:aws:events:us-east-1:000000000000:rule\/EvStack-OnOrder-[A-Z0-9]{12}$/,
    );
    const { name } = ruleLocation(created.physicalId);
    expect(created.ref).toBe(name);
    const request = { logicalId: 'OnOrder', type, physicalId: created.physicalId };
    const next = {
      ...properties,
      State: 'DISABLED',
      Targets: [
        { Id: 'two', Arn: fn('two'), Input: '{"x":1}' },
        { Id: 'three', Arn: fn('three') },
      ],
    };
    await rules.update({ ...request, properties: next, previousProperties: properties }, context);
    const read = await rules.read({ ...request, properties: next }, context);
    expect(read!.properties).toMatchObject({ State: 'DISABLED', EventPattern: { source: ['app'] } });
    expect((read!.properties.Targets as Array<{ Id: string }>).map((t) => t.Id).sort()).toEqual([
      'three',
      'two',
    ]);
    await rules.delete({ ...request, properties: next }, context);
    expect(await rules.read({ ...request, properties: next }, context)).toBeUndefined();
    await rules.delete({ ...request, properties: next }, context);
  });

  it('reports an unnamed rule made when its targets fail; the retry puts the same rule', async () => {
    const type = 'AWS::Events::Rule';
    const properties = { EventPattern: { source: ['app'] }, Targets: [{ Id: 'one', Arn: fn('one') }] };
    const request = { logicalId: 'Half', type, properties, idempotencyToken: 'rule-half' };
    await failNext(sandbox.current, 'events', 'PutTargets');
    const made = await madeError(rules.create(request, context));
    expect(made.made.physicalId).toMatch(/:rule\/EvStack-Half-[A-Z0-9]{12}$/);
    const live = await rules.read({ ...request, physicalId: made.made.physicalId }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    const retried = await rules.create(request, context);
    expect(retried.physicalId).toBe(made.made.physicalId);
    const targets = await events.send(
      new ListTargetsByRuleCommand({ Rule: ruleLocation(retried.physicalId).name }),
    );
    expect(targets.Targets!.map((t) => t.Id)).toEqual(['one']);
  });

  it('passes the target failure of a named rule through: PutRule may have overwritten one it found', async () => {
    await failNext(sandbox.current, 'events', 'PutTargets');
    const properties = {
      Name: 'named-half',
      ScheduleExpression: 'rate(1 hour)',
      Targets: [{ Id: 'x', Arn: fn('x') }],
    };
    const error = await rules
      .create({ logicalId: 'Named', type: 'AWS::Events::Rule', properties }, context)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ResourceMadeError);
    expect(error).toMatchObject({ message: 'injected PutTargets failure' });
  });

  it('diffs targets by Id', () => {
    const a = { Id: 'a', Arn: fn('a') };
    const b = { Id: 'b', Arn: fn('b') };
    expect(
      targetChanges(
        [a, b],
        [
          { ...b, Input: '{}' },
          { Id: 'c', Arn: fn('c') },
        ],
      ),
    ).toEqual({
      remove: ['a'],
      put: [
        { ...b, Input: '{}' },
        { Id: 'c', Arn: fn('c') },
      ],
    });
    expect(targetChanges([a], [a])).toEqual({ remove: [], put: [] });
  });

  it('keeps Name and EventBusName create-only and names within 64 characters', async () => {
    expect(rules.canUpdateInPlace('AWS::Events::Rule', ['Targets', 'State', 'EventPattern'])).toBe(true);
    expect(rules.canUpdateInPlace('AWS::Events::Rule', ['Name'])).toBe(false);
    expect(rules.canUpdateInPlace('AWS::Events::Rule', ['EventBusName'])).toBe(false);
    const created = await rules.create(
      {
        logicalId: 'L'.repeat(80),
        type: 'AWS::Events::Rule',
        properties: { ScheduleExpression: 'rate(5 minutes)' },
      },
      { ...context, stackName: 'S'.repeat(80) },
    );
    expect(ruleLocation(created.physicalId).name).toHaveLength(64);
  });
});

describe('Ref and Fn::GetAtt, row by row', () => {
  it.each(Object.entries(EVENTS_REF_ATTRIBUTES))('%s', async (rowType, row) => {
    expect(Object.keys(row.attributes).sort()).toEqual(
      [...attributesOf(rowType)].filter((a) => a !== 'Policy').sort(),
    );
    await buses.create(
      { logicalId: 'B', type: 'AWS::Events::EventBus', properties: { Name: `bus-${rowType.length}` } },
      context,
    );
    const bus = `bus-${rowType.length}`;
    const created =
      rowType === 'AWS::Events::EventBus'
        ? await buses.create({ logicalId: 'Row', type: rowType, properties: { Name: 'ref-bus' } }, context)
        : await rules.create(
            {
              logicalId: 'Row',
              type: rowType,
              properties: { Name: 'ref-rule', EventBusName: bus, EventPattern: { source: ['x'] } },
            },
            context,
          );
    const name = rowType === 'AWS::Events::EventBus' ? 'ref-bus' : 'ref-rule';
    const expectedRef = row.ref === 'physicalId' ? undefined : `${bus}|${name}`;
    expect(created.ref).toBe(expectedRef);
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([attribute, shape]) => [
        attribute,
        shape
          .replace('{region}', 'us-east-1')
          .replace('{account}', ACCOUNT)
          .replace('{bus/}', `${bus}/`)
          .replace('{name}', name),
      ]),
    );
    expect(created.attributes).toEqual(expected);
  });
});

describe('through the engine', () => {
  it('a Name change replaces the rule; the old one and its targets are removed', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'events-engine-state' }));
    const backend = await openStateBackend(clients, 'events-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerEvents(registry);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (name: string) => ({
      Resources: {
        Rule: {
          Type: 'AWS::Events::Rule',
          Properties: {
            Name: name,
            ScheduleExpression: 'rate(1 hour)',
            Targets: [{ Id: 't', Arn: fn('t') }],
          },
        },
      },
    });
    const request = {
      stateName: 'EvReplace',
      stackName: 'EvReplace',
      region: 'us-east-1',
      accountId: ACCOUNT,
    };
    await engine.deploy({ ...request, template: template('first-rule') }, { concurrency: 2 });
    await engine.deploy({ ...request, template: template('second-rule') }, { concurrency: 2 });
    const targets = await events.send(new ListTargetsByRuleCommand({ Rule: 'second-rule' }));
    expect(targets.Targets!.map((t) => t.Id)).toEqual(['t']);
    await expect(events.send(new ListTargetsByRuleCommand({ Rule: 'first-rule' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DescribeLogGroupsCommand,
  ListTagsForResourceCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { registerLogs } from '../../src/providers/logs/index.js';
import { LOG_GROUP_NAME_RULES, LogGroupProvider } from '../../src/providers/logs/log-group.js';
import { LogsFilterProvider } from '../../src/providers/logs/filter-family.js';
import { METRIC_FILTER_DESCRIPTION } from '../../src/providers/logs/metric-filter.js';
import { LOGS_REF_ATTRIBUTES } from '../../src/providers/logs/ref-attributes.js';
import { SUBSCRIPTION_FILTER_DESCRIPTION } from '../../src/providers/logs/subscription-filter.js';
import { tokenPhysicalName } from '../../src/providers/physical-names.js';
import { ResourceMadeError, type ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { useSandbox } from '../helpers/sandbox.js';
import { failure } from '../sandbox/helpers.js';
import { clearFaults, failNext, madeError } from './made-helpers.js';
import { eventsTo } from '../helpers/recording-io-host.js';

const sandbox = useSandbox();
const ACCOUNT = '000000000000';
let context: ProviderContext;
let logs: CloudWatchLogsClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: 'us-east-1' });
  context = { clients, accountId: ACCOUNT, region: 'us-east-1', stackName: 'LogsStack' };
  logs = await clients.client(CloudWatchLogsClient, 'us-east-1');
});
afterEach(() => clearFaults(sandbox.current));

async function describeGroup(name: string) {
  const page = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  return page.logGroups?.find((group) => group.logGroupName === name);
}

const groups = new LogGroupProvider();
const type = 'AWS::Logs::LogGroup';

describe('AWS::Logs::LogGroup', () => {
  it('creates, updates in place, reads back and deletes', async () => {
    const properties = { LogGroupName: 'app-logs', RetentionInDays: '30', Tags: [{ Key: 'a', Value: '1' }] };
    const created = await groups.create({ logicalId: 'Logs', type, properties }, context);
    expect(created.physicalId).toBe('app-logs');
    expect(created.ref).toBeUndefined();
    expect(created.creationIdentity).toMatchObject({ Arn: created.attributes.Arn });
    expect((await describeGroup('app-logs'))!.retentionInDays).toBe(30);

    const updated = { RetentionInDays: ' +7 ', Tags: [{ Key: 'b', Value: '2' }], LogGroupName: 'app-logs' };
    await groups.update(
      {
        logicalId: 'Logs',
        type,
        physicalId: 'app-logs',
        properties: updated,
        previousProperties: properties,
      },
      context,
    );
    const arn = `arn:aws:logs:us-east-1:${ACCOUNT}:log-group:app-logs`;
    expect((await describeGroup('app-logs'))!.retentionInDays).toBe(7);
    expect((await logs.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ b: '2' });

    const read = await groups.read(
      { logicalId: 'Logs', type, physicalId: 'app-logs', properties: updated },
      context,
    );
    expect(read!.properties).toMatchObject({
      LogGroupName: 'app-logs',
      RetentionInDays: 7,
      Tags: [{ Key: 'b', Value: '2' }],
    });

    // Whitespace-only is CloudFormation's "no retention": the policy is removed.
    await groups.update(
      {
        logicalId: 'Logs',
        type,
        physicalId: 'app-logs',
        properties: { ...updated, RetentionInDays: '  ' },
        previousProperties: updated,
      },
      context,
    );
    expect((await describeGroup('app-logs'))!.retentionInDays).toBeUndefined();
    const neverExpires = await groups.read(
      { logicalId: 'Logs', type, physicalId: 'app-logs', properties: updated },
      context,
    );
    expect(neverExpires!.properties.RetentionInDays).toBe(0);

    await groups.delete({ logicalId: 'Logs', type, physicalId: 'app-logs', properties: updated }, context);
    expect(await describeGroup('app-logs')).toBeUndefined();
    expect(
      await groups.read({ logicalId: 'Logs', type, physicalId: 'app-logs', properties: {} }, context),
    ).toBeUndefined();
    await groups.delete({ logicalId: 'Logs', type, physicalId: 'app-logs', properties: updated }, context);
  });

  it('refuses a bad retention before any call', async () => {
    await expect(
      groups.create(
        { logicalId: 'Bad', type, properties: { LogGroupName: 'never-made', RetentionInDays: '1e3' } },
        context,
      ),
    ).rejects.toMatchObject({ code: 'LOG_RETENTION_INVALID' });
    expect(await describeGroup('never-made')).toBeUndefined();
  });

  it('reports the group made when CloudWatch refuses its retention, carrying the refusal and AWS name', async () => {
    const request = {
      logicalId: 'Odd',
      type,
      properties: { LogGroupName: 'odd-retention', RetentionInDays: 31 },
      idempotencyToken: 'odd-token',
    };
    const made = await madeError(groups.create(request, context), 'InvalidParameterException');
    expect(made.made.physicalId).toBe('odd-retention');
    const live = await groups.read({ ...request, physicalId: 'odd-retention' }, context);
    expect(made.made.creationIdentity).toEqual(live!.creationIdentity);
    // The retry of the same create takes its group back instead of colliding with the name.
    const retried = await groups.create(
      { ...request, properties: { LogGroupName: 'odd-retention' } },
      context,
    );
    expect(retried.creationIdentity).toEqual(made.made.creationIdentity);
  });

  it('reports the group made when its data protection policy is refused', async () => {
    await failNext(sandbox.current, 'logs', 'PutDataProtectionPolicy', {
      errorCode: 'InvalidParameterException',
    });
    const properties = { LogGroupName: 'dpp-refused', DataProtectionPolicy: { Name: 'p', Statement: [] } };
    const made = await madeError(
      groups.create({ logicalId: 'Dpp', type, properties }, context),
      'InvalidParameterException',
    );
    expect(made.made.physicalId).toBe('dpp-refused');
    expect(made.made.creationIdentity).toMatchObject({
      Arn: expect.stringContaining(':log-group:dpp-refused'),
    });
    expect(await describeGroup('dpp-refused')).toBeDefined();
  });

  it('passes a follow-up failure through for an explicit name it adopted after an unanswered call', async () => {
    const flaky = new LogGroupProvider();
    const request = {
      logicalId: 'Taken',
      type,
      properties: { LogGroupName: 'taken-elsewhere', RetentionInDays: 7 },
      idempotencyToken: 'taken-token',
    };
    const aborted = new AbortController();
    aborted.abort();
    await expect(flaky.create(request, { ...context, signal: aborted.signal })).rejects.toThrow();
    // Whoever made this group, it is not proven to be this create.
    await logs.send(new CreateLogGroupCommand({ logGroupName: 'taken-elsewhere' }));
    await failNext(sandbox.current, 'logs', 'PutRetentionPolicy', { errorCode: 'InvalidParameterException' });
    const error = await failure(flaky.create(request, context));
    expect(error.error).not.toBeInstanceOf(ResourceMadeError);
    expect(error.error.message).toBe('injected PutRetentionPolicy failure');
  });

  it('names an unnamed group {stack}-{logicalId}-{suffix} within the limit', async () => {
    const created = await groups.create(
      { logicalId: 'L'.repeat(600), type, properties: {} },
      { ...context, stackName: 'S'.repeat(600) },
    );
    expect(created.physicalId).toHaveLength(512);
    expect(created.physicalId).toMatch(/^S+-L+-[A-Z0-9]{12}$/);
  });

  it('adopts the group an unanswered first attempt made, with the same generated name', async () => {
    const flaky = new LogGroupProvider();
    const request = { logicalId: 'Flaky', type, properties: {}, idempotencyToken: 'token-1' };
    const aborted = new AbortController();
    aborted.abort();
    await expect(flaky.create(request, { ...context, signal: aborted.signal })).rejects.toThrow();
    // Simulate that the lost attempt did reach AWS: the group exists under the name the token gives.
    const name = tokenPhysicalName(context.stackName, request, LOG_GROUP_NAME_RULES);
    await logs.send(new CreateLogGroupCommand({ logGroupName: name }));
    const created = await flaky.create(request, context);
    expect(created.physicalId).toBe(name);
  });

  it('reports properties it cannot send and keeps LogGroupClass create-only', () => {
    expect(groups.uncoveredProperties(type, { LogGroupName: 'x', FieldIndexPolicies: [] })).toEqual([
      'FieldIndexPolicies',
    ]);
    expect(
      groups.canUpdateInPlace(type, ['RetentionInDays', 'Tags', 'KmsKeyId', 'DataProtectionPolicy']),
    ).toBe(true);
    expect(groups.canUpdateInPlace(type, ['LogGroupName'])).toBe(false);
    expect(groups.canUpdateInPlace(type, ['LogGroupClass'])).toBe(false);
  });
});

describe('metric and subscription filters', () => {
  const transformation = {
    MetricName: 'Errors',
    MetricNamespace: 'App',
    MetricValue: '1',
    DefaultValue: '0',
  };

  it('creates, updates in place, reads and deletes a metric filter', async () => {
    await groups.create({ logicalId: 'G', type, properties: { LogGroupName: 'filtered' } }, context);
    const filters = new LogsFilterProvider(METRIC_FILTER_DESCRIPTION);
    const properties = {
      LogGroupName: 'filtered',
      FilterPattern: 'ERROR',
      MetricTransformations: [transformation],
    };
    const created = await filters.create(
      { logicalId: 'Errors', type: 'AWS::Logs::MetricFilter', properties },
      context,
    );
    expect(created.physicalId).toMatch(/^LogsStack-Errors-[A-Z0-9]{12}$/);
    const request = { logicalId: 'Errors', type: 'AWS::Logs::MetricFilter', physicalId: created.physicalId };
    const changedProps = { ...properties, FilterPattern: 'FATAL' };
    await filters.update({ ...request, properties: changedProps, previousProperties: properties }, context);
    const read = await filters.read({ ...request, properties: changedProps }, context);
    expect(read!.properties).toMatchObject({
      FilterPattern: 'FATAL',
      MetricTransformations: [{ ...transformation, DefaultValue: 0 }],
    });
    expect(filters.canUpdateInPlace('AWS::Logs::MetricFilter', ['FilterName'])).toBe(false);
    await filters.delete({ ...request, properties }, context);
    expect(await filters.read({ ...request, properties }, context)).toBeUndefined();
    await filters.delete({ ...request, properties }, context);
  });

  it('creates, updates in place, reads and deletes a subscription filter', async () => {
    const subs = new LogsFilterProvider(SUBSCRIPTION_FILTER_DESCRIPTION);
    const t = 'AWS::Logs::SubscriptionFilter';
    const properties = {
      LogGroupName: 'filtered',
      FilterName: 'ship',
      FilterPattern: '',
      DestinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:ship',
    };
    const created = await subs.create({ logicalId: 'Ship', type: t, properties }, context);
    expect(created.physicalId).toBe('ship');
    const request = { logicalId: 'Ship', type: t, physicalId: 'ship' };
    const next = { ...properties, Distribution: 'Random' };
    await subs.update({ ...request, properties: next, previousProperties: properties }, context);
    expect((await subs.read({ ...request, properties: next }, context))!.properties).toMatchObject({
      Distribution: 'Random',
    });
    expect(subs.uncoveredProperties(t, { ...properties, EmitSystemFields: [] })).toEqual([
      'EmitSystemFields',
    ]);
    await subs.delete({ ...request, properties }, context);
    expect(await subs.read({ ...request, properties }, context)).toBeUndefined();
  });
});

describe('Ref and Fn::GetAtt, row by row', () => {
  it.each(Object.entries(LOGS_REF_ATTRIBUTES))('%s', async (rowType, row) => {
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerLogs(registry);
    const provider = registry.providerFor(rowType, 'sdk');
    const properties: Record<string, unknown> =
      rowType === type
        ? { LogGroupName: 'ref-row' }
        : {
            LogGroupName: 'ref-row-parent',
            FilterPattern: '',
            MetricTransformations: [{ MetricName: 'm', MetricNamespace: 'n', MetricValue: '1' }],
            DestinationArn: 'arn:aws:lambda:us-east-1:000000000000:function:f',
          };
    if (rowType !== type && !(await describeGroup('ref-row-parent'))) {
      await groups.create({ logicalId: 'P', type, properties: { LogGroupName: 'ref-row-parent' } }, context);
    }
    const created = await provider.create({ logicalId: 'Row', type: rowType, properties }, context);
    expect(row.ref).toBe('physicalId');
    expect(created.ref).toBeUndefined();
    const expected = Object.fromEntries(
      Object.entries(row.attributes).map(([name, shape]) => [
        name,
        shape
          .replace('{region}', 'us-east-1')
          .replace('{account}', ACCOUNT)
          .replace('{name}', created.physicalId),
      ]),
    );
    expect(created.attributes).toEqual(expected);
  });
});

describe('through the engine', () => {
  it('a LogGroupName change replaces the group: new one made, old one deleted', async () => {
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'logs-engine-state' }));
    const backend = await openStateBackend(clients, 'logs-engine-state', 'cdkd');
    const registry = new ProviderRegistry(new CloudControlProvider());
    registerLogs(registry);
    const engine = await createEngine({
      backend,
      clients,
      registry,
      io: eventsTo(() => {}),
      command: 'deploy',
      regions: ['us-east-1'],
    });
    const template = (name: string) => ({
      Resources: { Group: { Type: type, Properties: { LogGroupName: name, RetentionInDays: 14 } } },
    });
    const request = {
      stateName: 'LogsReplace',
      stackName: 'LogsReplace',
      region: 'us-east-1',
      accountId: ACCOUNT,
    };
    const options = { concurrency: 2, forceStatefulRecreation: true };
    await engine.deploy({ ...request, template: template('first-group') }, options);
    expect(await describeGroup('first-group')).toBeDefined();
    await engine.deploy({ ...request, template: template('second-group') }, options);
    expect((await describeGroup('second-group'))!.retentionInDays).toBe(14);
    expect(await describeGroup('first-group')).toBeUndefined();
  });
});

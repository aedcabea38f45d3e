import { setTimeout as realSleep } from 'node:timers/promises';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import type { Clock } from '../../src/providers/clock.js';
import { TableProvider } from '../../src/providers/dynamodb/table.js';
import { RuleProvider } from '../../src/providers/events/rule.js';
import { GROUP } from '../../src/providers/iam/group.js';
import { PrincipalProvider } from '../../src/providers/iam/principal-provider.js';
import { InstanceProfileProvider } from '../../src/providers/iam/instance-profile.js';
import { ManagedPolicyProvider } from '../../src/providers/iam/managed-policy.js';
import { ROLE } from '../../src/providers/iam/role.js';
import { USER } from '../../src/providers/iam/user.js';
import { LambdaFunctionProvider } from '../../src/providers/lambda/function.js';
import { LambdaLayerVersionProvider } from '../../src/providers/lambda/layer-version.js';
import { LambdaPermissionProvider } from '../../src/providers/lambda/permission.js';
import { LogGroupProvider } from '../../src/providers/logs/log-group.js';
import { LogsFilterProvider } from '../../src/providers/logs/filter-family.js';
import { METRIC_FILTER_DESCRIPTION } from '../../src/providers/logs/metric-filter.js';
import { SUBSCRIPTION_FILTER_DESCRIPTION } from '../../src/providers/logs/subscription-filter.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { JsonObject, Provider, ProviderContext } from '../../src/providers/provider.js';
import { BucketProvider } from '../../src/providers/s3/bucket.js';
import { SecretProvider } from '../../src/providers/secretsmanager/secret.js';
import { TopicProvider } from '../../src/providers/sns/topic.js';
import { QueueProvider } from '../../src/providers/sqs/queue.js';
import { ParameterProvider } from '../../src/providers/ssm/parameter.js';
import { useSandbox } from '../helpers/sandbox.js';
import { functionProperties } from './lambda-helpers.js';

useSandbox();
const ACCOUNT = '000000000000';
const STACK = 'LocStack';
let context: ProviderContext;

/** Virtual time with short real waits, so a table or function becomes ACTIVE quickly. */
const clock: Clock = { now: () => 0, sleep: () => realSleep(10) };

const PERMISSION_FN = 'locate-target';
const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};
const POLICY = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
};
const TABLE = {
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  BillingMode: 'PAY_PER_REQUEST',
};
const TRANSFORMATION = [{ MetricName: 'Errors', MetricNamespace: 'App', MetricValue: '1' }];

interface Case {
  type: string;
  provider: Provider;
  /** Properties that leave the name to the provider. */
  unnamed: JsonObject;
  /** The same with the template's name; absent for a type whose id is always generated. */
  named?: JsonObject;
  /** A token the create attached (Lambda's tag, Secrets Manager's version id) proves an explicit name too. */
  namedProven?: boolean;
}

const cases: Case[] = [
  {
    type: 'AWS::SQS::Queue',
    provider: new QueueProvider(),
    unnamed: {},
    named: { QueueName: 'loc-q' },
    namedProven: true,
  },
  {
    type: 'AWS::SNS::Topic',
    provider: new TopicProvider(),
    unnamed: { FifoTopic: 'true' },
    named: { TopicName: 'loc-t' },
  },
  {
    type: 'AWS::DynamoDB::Table',
    provider: new TableProvider({ clock }),
    unnamed: TABLE,
    named: { ...TABLE, TableName: 'loc-table' },
  },
  {
    type: 'AWS::Lambda::Function',
    provider: new LambdaFunctionProvider({ clock }),
    unnamed: functionProperties(),
    named: functionProperties({ FunctionName: 'loc-fn' }),
    namedProven: true,
  },
  {
    type: 'AWS::Lambda::LayerVersion',
    provider: new LambdaLayerVersionProvider(),
    unnamed: { Content: { S3Bucket: 'loc-assets', S3Key: 'layer.zip' } },
    named: { Content: { S3Bucket: 'loc-assets', S3Key: 'layer.zip' }, LayerName: 'loc-layer' },
  },
  {
    type: 'AWS::Lambda::Permission',
    provider: new LambdaPermissionProvider(),
    unnamed: { FunctionName: PERMISSION_FN, Action: 'lambda:InvokeFunction', Principal: 's3.amazonaws.com' },
  },
  {
    type: 'AWS::Events::Rule',
    provider: new RuleProvider(),
    unnamed: { ScheduleExpression: 'rate(1 hour)' },
    named: { ScheduleExpression: 'rate(1 hour)', Name: 'loc-rule' },
  },
  {
    type: 'AWS::SecretsManager::Secret',
    provider: new SecretProvider(),
    unnamed: { SecretString: 'a' },
    named: { SecretString: 'a', Name: 'loc-secret' },
    namedProven: true,
  },
  {
    type: 'AWS::Logs::LogGroup',
    provider: new LogGroupProvider(),
    unnamed: {},
    named: { LogGroupName: 'loc-group' },
  },
  {
    type: 'AWS::Logs::MetricFilter',
    provider: new LogsFilterProvider(METRIC_FILTER_DESCRIPTION),
    unnamed: { LogGroupName: 'loc-filtered', FilterPattern: 'ERROR', MetricTransformations: TRANSFORMATION },
    named: {
      LogGroupName: 'loc-filtered',
      FilterPattern: 'ERROR',
      MetricTransformations: TRANSFORMATION,
      FilterName: 'loc-mf',
    },
  },
  {
    type: 'AWS::Logs::SubscriptionFilter',
    provider: new LogsFilterProvider(SUBSCRIPTION_FILTER_DESCRIPTION),
    unnamed: {
      LogGroupName: 'loc-subscribed',
      FilterPattern: '',
      DestinationArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:ship`,
    },
    named: {
      LogGroupName: 'loc-subscribed',
      FilterPattern: '',
      DestinationArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:ship`,
      FilterName: 'loc-sf',
    },
  },
  {
    type: 'AWS::IAM::Role',
    provider: new PrincipalProvider(ROLE),
    unnamed: { AssumeRolePolicyDocument: TRUST },
    named: { AssumeRolePolicyDocument: TRUST, RoleName: 'loc-role' },
    namedProven: true,
  },
  {
    type: 'AWS::IAM::User',
    provider: new PrincipalProvider(USER),
    unnamed: {},
    named: { UserName: 'loc-user' },
  },
  {
    type: 'AWS::IAM::Group',
    provider: new PrincipalProvider(GROUP),
    unnamed: {},
    named: { GroupName: 'loc-group' },
  },
  {
    type: 'AWS::IAM::InstanceProfile',
    provider: new InstanceProfileProvider(),
    unnamed: { Roles: [] },
    named: { Roles: [], InstanceProfileName: 'loc-profile' },
  },
  {
    type: 'AWS::IAM::ManagedPolicy',
    provider: new ManagedPolicyProvider(),
    unnamed: { PolicyDocument: POLICY, Path: '/loc/' },
    named: { PolicyDocument: POLICY, Path: '/loc/', ManagedPolicyName: 'loc-policy' },
  },
  {
    type: 'AWS::SSM::Parameter',
    provider: new ParameterProvider(),
    unnamed: { Type: 'String', Value: 'v' },
    named: { Type: 'String', Value: 'v', Name: 'loc-param' },
    namedProven: true,
  },
  {
    type: 'AWS::S3::Bucket',
    provider: new BucketProvider(),
    unnamed: {},
    named: { BucketName: 'loc-bucket' },
  },
];

beforeAll(async () => {
  context = {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: ACCOUNT,
    region: 'us-east-1',
    stackName: STACK,
  };
  const s3 = await context.clients.s3();
  await s3.send(new CreateBucketCommand({ Bucket: 'loc-assets' }));
  await s3.send(new PutObjectCommand({ Bucket: 'loc-assets', Key: 'layer.zip', Body: 'PK layer' }));
  const groups = new LogGroupProvider();
  for (const LogGroupName of ['loc-filtered', 'loc-subscribed']) {
    await groups.create(
      { logicalId: 'G', type: 'AWS::Logs::LogGroup', properties: { LogGroupName } },
      context,
    );
  }
  await new LambdaFunctionProvider({ clock }).create(
    {
      logicalId: 'Target',
      type: 'AWS::Lambda::Function',
      properties: functionProperties({ FunctionName: PERMISSION_FN }),
    },
    context,
  );
});

const locateRequest = (type: string, properties: JsonObject, idempotencyToken?: string) => ({
  logicalId: 'Located',
  type,
  properties,
  ...(idempotencyToken !== undefined ? { idempotencyToken } : {}),
});

describe.each(cases)('locate: $type', ({ type, provider, unnamed }) => {
  const request = (properties: JsonObject, token?: string) => locateRequest(type, properties, token);

  it('finds what a create with the same token made (its id as create returned it), nothing under another token', async () => {
    const token = `${type}-made`;
    expect(await provider.locate!(request(unnamed, token), context)).toBe('none');
    const created = await provider.create(request(unnamed, token), context);
    expect(await provider.locate!(request(unnamed, token), context)).toEqual({
      physicalId: created.physicalId,
    });
    expect(await provider.locate!(request(unnamed, `${type}-other`), context)).toBe('none');
    // Without a token nothing proves either way.
    expect(await provider.locate!(request(unnamed), context)).toBe('unknown');
    await provider.delete(
      { logicalId: 'Located', type, physicalId: created.physicalId, properties: unnamed },
      context,
    );
    expect(await provider.locate!(request(unnamed, token), context)).toBe('none');
  });
});

// Lambda::Permission has no name property: its statement id is always generated.
describe.each(cases.filter((c) => c.named !== undefined))(
  'locate an explicitly named $type',
  ({ type, provider, named, namedProven }) => {
    const request = (token: string) => locateRequest(type, named!, token);
    it(
      namedProven
        ? 'finds it only by the token its create attached'
        : 'never claims it: a name match is no proof, so the answer is unknown',
      async () => {
        const created = await provider.create(request(`${type}-named`), context);
        expect(await provider.locate!(request(`${type}-named`), context)).toEqual(
          namedProven ? { physicalId: created.physicalId } : 'unknown',
        );
        expect(await provider.locate!(request(`${type}-other`), context)).toBe(
          namedProven ? 'none' : 'unknown',
        );
        // The token tag is cdkd's own: a read (drift, import) never shows it as a template tag.
        const live = await provider.read(
          { logicalId: 'Located', type, physicalId: created.physicalId, properties: named! },
          context,
        );
        expect(JSON.stringify(live?.properties ?? {})).not.toContain(TOKEN_TAG);
        expect(JSON.stringify(created.observed ?? {})).not.toContain(TOKEN_TAG);
        await provider.delete(
          { logicalId: 'Located', type, physicalId: created.physicalId, properties: named! },
          context,
        );
      },
    );
  },
);

describe('a create replayed with the same token', () => {
  it.each(cases.filter((c) => c.type !== 'AWS::Lambda::LayerVersion'))(
    '$type: takes back what the first attempt made, under the same id',
    async ({ type, provider, unnamed }) => {
      const request = {
        logicalId: 'Replayed',
        type,
        properties: unnamed,
        idempotencyToken: `${type}-replay`,
      };
      const first = await provider.create(request, context);
      const second = await provider.create(request, context);
      expect(second.physicalId).toBe(first.physicalId);
      await provider.delete({ ...request, physicalId: first.physicalId }, context);
    },
  );
});

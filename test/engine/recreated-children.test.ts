import {
  GetInstanceProfileCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import {
  GetAliasCommand,
  GetFunctionCommand,
  GetFunctionEventInvokeConfigCommand,
  GetPolicyCommand,
  LambdaClient,
} from '@aws-sdk/client-lambda';
import { GetBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { GetTopicAttributesCommand, ListSubscriptionsByTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../helpers/error-chain.js';
import { iamRole, NEXT_CREATE_QUEUE_FAILS, REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * Spec 002 "Children deleted with the target", end to end on the sandbox: a bucket with a
 * fixed name re-created under the same name by the delete-first --replace of a create-only
 * change, and its bucket policy, which S3 deleted with it.
 */
const sandbox = useSandboxEngine('recreated-children-state');

function resources(bucketName: string, options: { objectLock?: boolean; failingQueue?: boolean } = {}) {
  return {
    Bucket: {
      Type: 'AWS::S3::Bucket',
      Properties: { BucketName: bucketName, ...(options.objectLock ? { ObjectLockEnabled: true } : {}) },
    },
    Policy: {
      Type: 'AWS::S3::BucketPolicy',
      Properties: {
        Bucket: { Ref: 'Bucket' },
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Deny',
              Principal: '*',
              Action: 's3:*',
              Resource: { 'Fn::Sub': 'arn:aws:s3:::${Bucket}/*' },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ],
        },
      },
      ...(options.failingQueue ? { DependsOn: ['Queue'] } : {}),
    },
    ...(options.failingQueue
      ? { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: `${bucketName}-queue` } } }
      : {}),
  };
}

async function livePolicy(bucket: string): Promise<string | undefined> {
  const s3 = await sandbox.clients.client(S3Client, REGION);
  try {
    return (await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy;
  } catch {
    return undefined;
  }
}

async function records(stackName: string) {
  return (await sandbox.backend.store.read({ stackName, region: REGION }))!.document.resources;
}

const warnings = () => sandbox.events.flatMap((e) => (e.kind === 'warning' ? [e.message] : []));

/** Each resource's action in the events of the deploys so far, as it succeeded. */
function succeededActions(): Record<string, string> {
  return Object.fromEntries(
    sandbox.events.flatMap((e) =>
      e.kind === 'resource' && e.status === 'succeeded' ? [[e.logicalId, e.action]] : [],
    ),
  );
}

describe('a fixed-name bucket re-created under the same name', () => {
  it('gets its bucket policy back: re-created without a delete, after the bucket', async () => {
    await sandbox.deploy('Children', resources('kept-bucket'));
    const before = await records('Children');
    expect(await livePolicy('kept-bucket')).toBeDefined();

    await sandbox.deploy('Children', resources('kept-bucket', { objectLock: true }), { replace: true });
    const after = await records('Children');
    expect(after.Bucket!.physicalId).toBe(before.Bucket!.physicalId);
    expect(after.Bucket!.properties).toMatchObject({ ObjectLockEnabled: true });
    const policyEvents = sandbox.events.flatMap((e) =>
      e.kind === 'resource' && e.logicalId === 'Policy' ? [`${e.action}:${e.status}`] : [],
    );
    expect(policyEvents).toEqual(['create:started', 'create:succeeded']);
    expect(after.Policy).toBeDefined();
    expect(JSON.parse((await livePolicy('kept-bucket'))!).Statement[0].Effect).toBe('Deny');
  });

  it('a restore that was attempted and failed keeps its record, and the warning names --recreate-via-cc-api', async () => {
    await sandbox.deploy('ChildFails', resources('fail-bucket'));
    const before = await records('ChildFails');
    await sandbox.addFault({
      service: 's3',
      operation: 'PutBucketPolicy',
      errorCode: 'MalformedPolicy',
      httpStatus: 400,
      message: 'injected',
    });
    const failure = await sandbox
      .deploy('ChildFails', resources('fail-bucket', { objectLock: true }), {
        replace: true,
        rollback: false,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    expect((await records('ChildFails')).Policy).toEqual(before.Policy);
    expect(warnings()).toContainEqual(expect.stringContaining('deploy with --recreate-via-cc-api Policy'));
  });

  it('a child whose restore never ran because the deploy failed first is dropped, and the next deploy creates it', async () => {
    await sandbox.deploy('ChildDropped', resources('drop-bucket'));
    await sandbox.addFault(NEXT_CREATE_QUEUE_FAILS);
    const failure = await sandbox
      .deploy('ChildDropped', resources('drop-bucket', { objectLock: true, failingQueue: true }), {
        replace: true,
        rollback: false,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    const afterFailure = await records('ChildDropped');
    expect(afterFailure.Bucket!.properties).toMatchObject({ ObjectLockEnabled: true });
    expect(afterFailure.Policy).toBeUndefined();
    expect(await livePolicy('drop-bucket')).toBeUndefined();

    await sandbox.deploy('ChildDropped', resources('drop-bucket', { objectLock: true, failingQueue: true }));
    expect((await records('ChildDropped')).Policy).toBeDefined();
    expect(await livePolicy('drop-bucket')).toBeDefined();
  });
});

describe('a fixed-name topic re-created under the same name', () => {
  function topics(standardAttribute: boolean) {
    const publish = (topic: string) => ({
      Effect: 'Allow',
      Principal: { Service: 'events.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topic },
    });
    return {
      // FifoTopic is create-only: adding it replaces the topic, under the same name.
      Topic: {
        Type: 'AWS::SNS::Topic',
        Properties: { TopicName: 'kept-topic', ...(standardAttribute ? { FifoTopic: false } : {}) },
      },
      Other: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'other-topic' } },
      Both: {
        Type: 'AWS::SNS::TopicPolicy',
        Properties: {
          Topics: [{ Ref: 'Topic' }, { Ref: 'Other' }],
          PolicyDocument: { Version: '2012-10-17', Statement: [publish('Topic'), publish('Other')] },
        },
      },
      Inbox: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'topic-inbox' } },
      Subscription: {
        Type: 'AWS::SNS::Subscription',
        Properties: {
          TopicArn: { Ref: 'Topic' },
          Protocol: 'sqs',
          Endpoint: { 'Fn::GetAtt': ['Inbox', 'Arn'] },
        },
      },
    };
  }

  it('writes the two-topic policy again in place and re-creates the subscription', async () => {
    await sandbox.deploy('Parents', topics(false));
    const before = await records('Parents');
    await sandbox.deploy('Parents', topics(true), { replace: true });
    const after = await records('Parents');
    expect(after.Topic!.physicalId).toBe(before.Topic!.physicalId);
    const actions = succeededActions();
    expect(actions).toMatchObject({ Topic: 'replace', Both: 'update', Subscription: 'create' });
    expect(after.Both!.physicalId).toBe(before.Both!.physicalId);
    expect(after.Both!.properties.Topics).toEqual(before.Both!.properties.Topics);

    const sns = await sandbox.clients.client(SNSClient, REGION);
    const attributes = await sns.send(new GetTopicAttributesCommand({ TopicArn: after.Topic!.physicalId }));
    expect(JSON.parse(attributes.Attributes!.Policy!).Statement).toHaveLength(2);
    const subscriptions = await sns.send(
      new ListSubscriptionsByTopicCommand({ TopicArn: after.Topic!.physicalId }),
    );
    expect(subscriptions.Subscriptions?.map((sub) => sub.SubscriptionArn)).toEqual([
      after.Subscription!.physicalId,
    ]);
  });
});

describe('a fixed-name Lambda function re-created under the same name', () => {
  function lambdaStack(packageType: boolean, functionName = 'kept-fn') {
    return {
      Role: iamRole(),
      Fn: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          FunctionName: functionName,
          Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
          Runtime: 'nodejs20.x',
          Handler: 'index.handler',
          Code: { ZipFile: 'exports.handler = async () => 1;' },
          // PackageType is create-only: adding it replaces the function, under the same name.
          ...(packageType ? { PackageType: 'Zip' } : {}),
        },
      },
      Perm: {
        Type: 'AWS::Lambda::Permission',
        Properties: {
          FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] },
          Action: 'lambda:InvokeFunction',
          Principal: 'sns.amazonaws.com',
        },
      },
      Ver: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: 'Fn' } } },
      Live: {
        Type: 'AWS::Lambda::Alias',
        Properties: {
          FunctionName: { Ref: 'Fn' },
          Name: 'live',
          FunctionVersion: { 'Fn::GetAtt': ['Ver', 'Version'] },
        },
      },
      Async: {
        Type: 'AWS::Lambda::EventInvokeConfig',
        Properties: { FunctionName: { Ref: 'Fn' }, Qualifier: '$LATEST', MaximumRetryAttempts: 1 },
      },
    };
  }

  it('without --replace is refused with NAMED_REPLACEMENT_COLLISION, and the stack is left as it was', async () => {
    await sandbox.deploy('KeptFnRefused', lambdaStack(false, 'refused-fn'));
    const before = await records('KeptFnRefused');
    const failure = await sandbox.deploy('KeptFnRefused', lambdaStack(true, 'refused-fn')).then(
      () => undefined,
      (error: unknown) => error,
    );
    const { codes, message, hint } = failureOf(failure);
    expect(codes).toContain('NAMED_REPLACEMENT_COLLISION');
    expect(message).toContain('refused-fn is held by refused-fn, the resource being replaced');
    expect(hint).toContain('pass --replace to delete refused-fn first');
    expect(await records('KeptFnRefused')).toEqual(before);
  });

  it('with --replace is deleted first and re-created, and its permission, version, alias and event invoke config come back', async () => {
    await sandbox.deploy('KeptFn', lambdaStack(false));
    const before = await records('KeptFn');
    await sandbox.deploy('KeptFn', lambdaStack(true), { replace: true });
    const after = await records('KeptFn');
    expect(after.Fn!.physicalId).toBe('kept-fn');
    expect(after.Fn!.properties).toMatchObject({ PackageType: 'Zip' });
    const actions = succeededActions();
    expect(actions).toMatchObject({
      Fn: 'replace',
      Perm: 'create',
      Ver: 'create',
      Live: 'create',
      Async: 'create',
    });
    expect(after.Async!.physicalId).toBe('kept-fn|$LATEST');
    expect(after.Role).toEqual(before.Role);

    const lambda = await sandbox.clients.client(LambdaClient, REGION);
    expect(
      (await lambda.send(new GetFunctionCommand({ FunctionName: 'kept-fn' }))).Configuration?.PackageType,
    ).toBe('Zip');
    const policy = JSON.parse((await lambda.send(new GetPolicyCommand({ FunctionName: 'kept-fn' }))).Policy!);
    expect(policy.Statement.map((statement: { Sid: string }) => statement.Sid)).toEqual([
      after.Perm!.physicalId,
    ]);
    const alias = await lambda.send(new GetAliasCommand({ FunctionName: 'kept-fn', Name: 'live' }));
    expect(alias.FunctionVersion).toBe(after.Ver!.attributes.Version);
    const config = await lambda.send(new GetFunctionEventInvokeConfigCommand({ FunctionName: 'kept-fn' }));
    expect(config.MaximumRetryAttempts).toBe(1);
  });
});

describe('a fixed-name IAM role re-created under the same name', () => {
  function roleStack(path: string) {
    const document = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
    };
    return {
      // Path is create-only: a new path replaces the role, under the same name.
      Role: iamRole({ RoleName: 'kept-role', Path: path }),
      Other: iamRole({ RoleName: 'other-role' }),
      Inline: {
        Type: 'AWS::IAM::RolePolicy',
        Properties: { RoleName: { Ref: 'Role' }, PolicyName: 'inline', PolicyDocument: document },
      },
      Shared: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          PolicyName: 'shared',
          Roles: [{ Ref: 'Role' }, { Ref: 'Other' }],
          PolicyDocument: document,
        },
      },
      Managed: {
        Type: 'AWS::IAM::ManagedPolicy',
        Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: document },
      },
      Profile: { Type: 'AWS::IAM::InstanceProfile', Properties: { Roles: [{ Ref: 'Role' }] } },
    };
  }

  it('detaches what is attached before the delete and attaches it again; its inline policies come back', async () => {
    await sandbox.deploy('KeptRole', roleStack('/one/'));
    const before = await records('KeptRole');
    await sandbox.deploy('KeptRole', roleStack('/two/'), { replace: true });
    const after = await records('KeptRole');
    expect(after.Role!.physicalId).toBe('kept-role');
    const actions = succeededActions();
    expect(actions).toMatchObject({
      Role: 'replace',
      Inline: 'create',
      Shared: 'update',
      Managed: 'update',
      Profile: 'update',
    });
    for (const id of ['Shared', 'Managed', 'Profile'])
      expect(after[id]!.properties).toEqual(before[id]!.properties);

    const iam = await sandbox.clients.client(IAMClient, REGION);
    const attached = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'kept-role' }));
    expect(attached.AttachedPolicies?.map((p) => p.PolicyArn)).toEqual([after.Managed!.physicalId]);
    const profile = await iam.send(
      new GetInstanceProfileCommand({ InstanceProfileName: after.Profile!.physicalId }),
    );
    expect(profile.InstanceProfile?.Roles?.map((r) => [r.RoleName, r.Path])).toEqual([
      ['kept-role', '/two/'],
    ]);
    for (const PolicyName of ['inline', 'shared'])
      expect(
        (await iam.send(new GetRolePolicyCommand({ RoleName: 'kept-role', PolicyName }))).PolicyName,
      ).toBe(PolicyName);
  });
});

import { describe, expect, it } from 'vitest';
import { iamRole, useSandboxEngine } from '../helpers/sandbox-engine.js';

const env = useSandboxEngine('observed-properties-sdk-state');

const HANDLER = 'exports.handler = async () => ({ statusCode: 200 });';

/** One resource of every SDK provider whose write answers something, with `description` where it takes one. */
function resources(description: string) {
  const getAtt = (id: string, attribute: string) => ({ 'Fn::GetAtt': [id, attribute] });
  return {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'observed-queue', VisibilityTimeout: 45 } },
    Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'observed-topic' } },
    Subscription: {
      Type: 'AWS::SNS::Subscription',
      Properties: { TopicArn: { Ref: 'Topic' }, Protocol: 'sqs', Endpoint: getAtt('Queue', 'Arn') },
    },
    Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'observed-bucket' } },
    Role: iamRole({ RoleName: 'observed-role', Description: description, MaxSessionDuration: 7200 }),
    User: { Type: 'AWS::IAM::User', Properties: { UserName: 'observed-user', Path: '/team/' } },
    Group: { Type: 'AWS::IAM::Group', Properties: { GroupName: 'observed-group', Path: '/team/' } },
    Profile: {
      Type: 'AWS::IAM::InstanceProfile',
      Properties: { InstanceProfileName: 'observed-profile', Roles: [{ Ref: 'Role' }] },
    },
    Managed: {
      Type: 'AWS::IAM::ManagedPolicy',
      Properties: {
        ManagedPolicyName: 'observed-managed',
        Description: 'managed',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
        },
      },
    },
    Key: { Type: 'AWS::KMS::Key', Properties: { Description: description } },
    KeyAlias: {
      Type: 'AWS::KMS::Alias',
      Properties: { AliasName: 'alias/observed', TargetKeyId: { Ref: 'Key' } },
    },
    Parameter: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: '/observed/parameter', Type: 'String', Value: 'v', Description: description },
    },
    Secret: {
      Type: 'AWS::SecretsManager::Secret',
      Properties: { Name: 'observed-secret', Description: 'secret', SecretString: 'not-observed' },
    },
    Group2: {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: '/observed/group', RetentionInDays: 7 },
    },
    MetricFilter: {
      Type: 'AWS::Logs::MetricFilter',
      Properties: {
        LogGroupName: { Ref: 'Group2' },
        FilterName: 'observed-filter',
        FilterPattern: 'ERROR',
        MetricTransformations: [{ MetricName: 'Errors', MetricNamespace: 'Observed', MetricValue: '1' }],
      },
    },
    Bus: { Type: 'AWS::Events::EventBus', Properties: { Name: 'observed-bus', Description: description } },
    Rule: {
      Type: 'AWS::Events::Rule',
      Properties: {
        Name: 'observed-rule',
        EventBusName: { Ref: 'Bus' },
        EventPattern: { source: ['observed'] },
      },
    },
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: 'observed-table',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      },
    },
    Function: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        FunctionName: 'observed-function',
        Runtime: 'nodejs20.x',
        Handler: 'index.handler',
        Role: getAtt('Role', 'Arn'),
        Description: description,
        Timeout: 9,
        Code: { ZipFile: HANDLER },
      },
    },
    Version: {
      Type: 'AWS::Lambda::Version',
      Properties: { FunctionName: { Ref: 'Function' }, Description: 'v1' },
    },
    Alias: {
      Type: 'AWS::Lambda::Alias',
      Properties: {
        FunctionName: { Ref: 'Function' },
        Name: 'live',
        FunctionVersion: getAtt('Version', 'Version'),
        Description: description,
      },
    },
    Url: {
      Type: 'AWS::Lambda::Url',
      Properties: { TargetFunctionArn: { Ref: 'Function' }, AuthType: 'NONE' },
    },
    Permission: {
      Type: 'AWS::Lambda::Permission',
      Properties: {
        FunctionName: { Ref: 'Function' },
        Action: 'lambda:InvokeFunction',
        Principal: 's3.amazonaws.com',
      },
    },
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: { FunctionName: { Ref: 'Function' }, EventSourceArn: getAtt('Queue', 'Arn'), BatchSize: 5 },
    },
  };
}

describe("every SDK provider records what its write's own response returned as observedProperties", () => {
  it('on create, and on update for the types whose update calls answer', async () => {
    await env.deploy('Observed', resources('first'));
    const state = (await env.backend.store.read({ stackName: 'Observed', region: 'us-east-1' }))!.document;
    const observed = (id: string) => state.resources[id]?.observedProperties;
    // Every record here was written by an SDK provider, not Cloud Control.
    expect(Object.values(state.resources).filter((record) => record.provisionedBy !== 'sdk')).toEqual([]);

    expect(observed('Queue')).toMatchObject({ QueueName: 'observed-queue', VisibilityTimeout: 45 });
    expect(observed('Topic')).toEqual({ TopicName: 'observed-topic' });
    expect(observed('Subscription')).toEqual({ TopicArn: state.resources.Topic?.physicalId });
    expect(observed('Bucket')).toEqual({ BucketName: 'observed-bucket' });
    expect(observed('Role')).toMatchObject({
      RoleName: 'observed-role',
      Path: '/',
      Description: 'first',
      MaxSessionDuration: 7200,
      AssumeRolePolicyDocument: { Version: '2012-10-17' },
    });
    expect(observed('User')).toMatchObject({ UserName: 'observed-user', Path: '/team/' });
    expect(observed('Group')).toEqual({ GroupName: 'observed-group', Path: '/team/' });
    expect(observed('Profile')).toEqual({ InstanceProfileName: 'observed-profile', Path: '/' });
    expect(observed('Managed')).toMatchObject({ ManagedPolicyName: 'observed-managed', Path: '/' });
    expect(observed('Key')).toMatchObject({ Description: 'first', KeyUsage: 'ENCRYPT_DECRYPT' });
    expect(observed('KeyAlias')).toEqual({
      AliasName: 'alias/observed',
      TargetKeyId: state.resources.Key?.physicalId,
    });
    expect(observed('Parameter')).toMatchObject({
      Name: '/observed/parameter',
      Type: 'String',
      Description: 'first',
    });
    expect(observed('Secret')).toMatchObject({ Name: 'observed-secret', Description: 'secret' });
    expect(JSON.stringify(observed('Secret'))).not.toContain('not-observed');
    expect(observed('Group2')).toMatchObject({ LogGroupName: '/observed/group', RetentionInDays: 7 });
    expect(observed('MetricFilter')).toMatchObject({
      FilterName: 'observed-filter',
      LogGroupName: '/observed/group',
      FilterPattern: 'ERROR',
    });
    expect(observed('Bus')).toEqual({ Name: 'observed-bus', Description: 'first' });
    expect(observed('Rule')).toEqual({ Name: 'observed-rule', EventBusName: 'observed-bus' });
    expect(observed('Table')).toMatchObject({ TableName: 'observed-table' });
    expect(observed('Function')).toMatchObject({
      FunctionName: 'observed-function',
      Runtime: 'nodejs20.x',
      Description: 'first',
      Timeout: 9,
    });
    expect(observed('Version')).toMatchObject({ Description: 'v1' });
    expect(observed('Alias')).toMatchObject({ Name: 'live', Description: 'first', FunctionVersion: '1' });
    expect(observed('Url')).toMatchObject({ AuthType: 'NONE' });
    expect(observed('Permission')).toMatchObject({
      Action: 'lambda:InvokeFunction',
      FunctionName: expect.stringContaining(':function:observed-function'),
    });
    expect(observed('Mapping')).toMatchObject({
      BatchSize: 5,
      EventSourceArn: state.resources.Queue?.attributes.Arn,
    });

    await env.deploy('Observed', resources('second'));
    const updated = (await env.backend.store.read({ stackName: 'Observed', region: 'us-east-1' }))!.document;
    for (const id of ['Role', 'Key', 'Parameter', 'Bus', 'Function', 'Alias']) {
      expect(updated.resources[id]?.observedProperties, id).toMatchObject({ Description: 'second' });
    }
    await (
      await env.engine()
    ).destroy(
      { stateName: 'Observed', stackName: 'Observed', region: 'us-east-1', accountId: '000000000000' },
      { concurrency: 4 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import {
  describeIdShape,
  exampleId,
  idIsGlobal,
  idShapeOf,
  idShapeProblem,
  SDK_ID_SHAPES,
} from '../../src/providers/id-shapes.js';
import { SDK_PROVIDER_TYPES } from '../../src/providers/sdk-providers.js';
import type { ProviderKind } from '../../src/providers/provider.js';

const where = { partition: 'aws', region: 'us-east-1', accountId: '123456789012' };
const queueUrl = 'https://sqs.us-east-1.amazonaws.com/123456789012/my-queue';
const uuid = '1234abcd-12ab-34cd-56ef-1234567890ab';

describe('idShapeOf + idShapeProblem: whether an id can be one of the type (undefined: it can)', () => {
  it.each<[string, ProviderKind, string, string | undefined]>([
    // SDK providers: what CloudFormation's Ref returns.
    ['AWS::SQS::Queue', 'sdk', queueUrl, undefined],
    ['AWS::SQS::Queue', 'sdk', 'http://127.0.0.1:4566/000000000000/jobs.fifo', undefined],
    ['AWS::SQS::Queue', 'sdk', 'my-queue', "it cannot be the queue's URL"],
    ['AWS::SQS::Queue', 'sdk', 'arn:aws:sqs:us-east-1:123456789012:my-queue', 'it is a sqs ARN'],
    [
      'AWS::SQS::Queue',
      'sdk',
      'https://sqs.us-east-1.amazonaws.com/my-queue',
      "it cannot be the queue's URL",
    ],
    ['AWS::SQS::Queue', 'sdk', '', 'it is empty'],
    ['AWS::SNS::Topic', 'sdk', 'arn:aws:sns:us-east-1:123456789012:t', undefined],
    ['AWS::SNS::Topic', 'sdk', 't', 'it is not an ARN'],
    ['AWS::SNS::Topic', 'sdk', 'arn:aws:sqs:us-east-1:123456789012:t', 'it is a sqs ARN'],
    ['AWS::SNS::Subscription', 'sdk', `arn:aws:sns:us-east-1:123456789012:t:${uuid}`, undefined],
    ['AWS::S3::Bucket', 'sdk', 'my-bucket', undefined],
    ['AWS::S3::Bucket', 'sdk', 'arn:aws:s3:::my-bucket', 'it is a s3 ARN'],
    ['AWS::S3::Bucket', 'sdk', 'arn:aws:sqs:us-east-1:1:some-queue', 'it is a sqs ARN'],
    ['AWS::S3::Bucket', 'sdk', 'https://my-bucket.s3.amazonaws.com', 'it is a URL'],
    ['AWS::S3::Bucket', 'sdk', 'my bucket', "it cannot be the bucket's name"],
    ['AWS::S3::BucketPolicy', 'sdk', 'my-bucket', undefined],
    ['AWS::DynamoDB::Table', 'sdk', 'orders', undefined],
    ['AWS::DynamoDB::Table', 'sdk', 'arn:aws:dynamodb:us-east-1:1:table/orders', 'it is a dynamodb ARN'],
    ['AWS::Lambda::Function', 'sdk', 'my-function', undefined],
    ['AWS::Lambda::Function', 'sdk', 'arn:aws:lambda:us-east-1:1:function:f', 'it is a lambda ARN'],
    ['AWS::Lambda::Version', 'sdk', 'arn:aws:lambda:us-east-1:1:function:f:3', undefined],
    [
      'AWS::Lambda::LayerVersion',
      'sdk',
      'arn:aws:lambda:us-east-1:1:function:f',
      'its resource part does not start with layer:',
    ],
    ['AWS::Lambda::EventSourceMapping', 'sdk', uuid, undefined],
    ['AWS::Lambda::EventSourceMapping', 'sdk', 'my-mapping', "it cannot be the mapping's UUID"],
    ['AWS::Lambda::EventInvokeConfig', 'sdk', 'f|$LATEST', undefined],
    [
      'AWS::Lambda::EventInvokeConfig',
      'sdk',
      'f',
      'it has 1 of the 2 values FunctionName|Qualifier joined by |',
    ],
    ['AWS::Logs::LogGroup', 'sdk', '/aws/lambda/f', undefined],
    ['AWS::IAM::Role', 'sdk', 'MyRole', undefined],
    ['AWS::IAM::Role', 'sdk', 'arn:aws:iam::1:role/MyRole', 'it is a iam ARN'],
    ['AWS::IAM::ManagedPolicy', 'sdk', 'arn:aws:iam::1:policy/p', undefined],
    [
      'AWS::IAM::ManagedPolicy',
      'sdk',
      'arn:aws:iam::1:role/p',
      'its resource part does not start with policy/',
    ],
    ['AWS::KMS::Key', 'sdk', uuid, undefined],
    ['AWS::KMS::Key', 'sdk', 'mrk-0123456789abcdef0123456789abcdef', undefined],
    ['AWS::KMS::Key', 'sdk', `arn:aws:kms:us-east-1:1:key/${uuid}`, 'it is a kms ARN'],
    ['AWS::KMS::Alias', 'sdk', 'alias/my-key', undefined],
    ['AWS::KMS::Alias', 'sdk', 'my-key', "it cannot be the alias's name (alias/...)"],
    ['AWS::SecretsManager::Secret', 'sdk', 'arn:aws:secretsmanager:us-east-1:1:secret:s-AbCdEf', undefined],
    ['AWS::SecretsManager::Secret', 'sdk', 's', 'it is not an ARN'],
    ['AWS::Events::Rule', 'sdk', 'arn:aws:events:us-east-1:1:rule/bus/r', undefined],
    ['AWS::Events::Rule', 'sdk', 'r', 'it is not an ARN'],
    ['AWS::EC2::Subnet', 'sdk', 'subnet-0123456789abcdef0', undefined],
    ['AWS::EC2::Subnet', 'sdk', 'vpc-0123456789abcdef0', "it cannot be the subnet's id"],
    ['AWS::CloudWatch::Alarm', 'sdk', 'High CPU: web', undefined],
    ['AWS::SSM::Parameter', 'sdk', '/app/setting', undefined],
    ['AWS::ApiGateway::RestApi', 'sdk', 'a1b2c3d4e5', undefined],
    [
      'AWS::ApiGateway::RestApi',
      'sdk',
      'arn:aws:apigateway:us-east-1::/restapis/a1',
      'it is a apigateway ARN',
    ],
    ['AWS::ApiGateway::Method', 'sdk', 'a1b2c3d4e5|abc123|GET', undefined],
    ['AWS::ApiGateway::Stage', 'sdk', 'prod', undefined],
    // Cloud Control: the schema's primary identifier, derived from the resource index.
    ['AWS::SQS::Queue', 'cc-api', queueUrl, undefined],
    ['AWS::SQS::Queue', 'cc-api', 'my-queue', 'it cannot be a URL (its QueueUrl)'],
    ['AWS::StepFunctions::StateMachine', 'cc-api', 'arn:aws:states:us-east-1:1:stateMachine:m', undefined],
    ['AWS::StepFunctions::StateMachine', 'cc-api', 'm', 'it is not an ARN'],
    ['AWS::StepFunctions::StateMachine', 'cc-api', 'arn:aws:sns:us-east-1:1:m', 'it is a sns ARN'],
    ['AWS::ECR::Repository', 'cc-api', 'my-repo', undefined],
    ['AWS::ECR::Repository', 'cc-api', 'arn:aws:ecr:us-east-1:1:repository/my-repo', 'it is a ecr ARN'],
    ['AWS::Logs::MetricFilter', 'cc-api', '/my/group|my-filter', undefined],
    [
      'AWS::Logs::MetricFilter',
      'cc-api',
      'my-filter',
      'it has 1 of the 2 values LogGroupName|FilterName joined by |',
    ],
    ['AWS::Logs::MetricFilter', 'sdk', 'my-filter', undefined],
    ['AWS::EC2::VPC', 'cc-api', 'vpc-0123', undefined],
    ['AWS::EC2::VPC', 'cc-api', 'arn:aws:sqs:us-east-1:1:q', 'it is a sqs ARN'],
    [
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'cc-api',
      'arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/a/b',
      undefined,
    ],
    // Nothing known: a custom resource's id is its handler's answer; an unknown type is not judged.
    ['Custom::Thing', 'sdk', 'anything at all', undefined],
    ['AWS::Unlisted::Thing', 'cc-api', 'arn:aws:sqs:us-east-1:1:q', undefined],
  ])('%s (%s) given %j -> %s', (type, provisionedBy, id, expected) => {
    expect(idShapeProblem(idShapeOf(type, provisionedBy), id)).toBe(expected);
  });
});

describe('the SDK id shapes', () => {
  it('name every type an SDK provider serves, so a new provider must say what its ids look like', () => {
    const served = SDK_PROVIDER_TYPES.flatMap((group) => group.types).sort();
    expect(Object.keys(SDK_ID_SHAPES).sort()).toEqual(served);
  });

  it.each(Object.entries(SDK_ID_SHAPES))('%s: its own example passes its check', (type, shape) => {
    const example = exampleId(shape, where);
    if (example === undefined) return;
    expect(idShapeProblem(shape, example)).toBeUndefined();
    expect(idShapeProblem(idShapeOf(type, 'sdk'), example)).toBeUndefined();
  });
});

describe('examples and descriptions for the hint', () => {
  it.each<[string, ProviderKind, string, string | undefined]>([
    ['AWS::SQS::Queue', 'sdk', "the queue's URL", queueUrl],
    ['AWS::SNS::Topic', 'sdk', "the topic's ARN", 'arn:aws:sns:us-east-1:123456789012:my-topic'],
    [
      'AWS::StepFunctions::StateMachine',
      'cc-api',
      'its Arn',
      'arn:aws:states:us-east-1:123456789012:stateMachine:<StateMachineName>',
    ],
    [
      'AWS::Logs::MetricFilter',
      'cc-api',
      'LogGroupName|FilterName (its values joined by |)',
      '<LogGroupName>|<FilterName>',
    ],
    ['AWS::ECR::Repository', 'cc-api', 'its RepositoryName', '<RepositoryName>'],
    ['Custom::Thing', 'sdk', 'any id', undefined],
  ])('%s (%s): %s, e.g. %s', (type, provisionedBy, described, example) => {
    const shape = idShapeOf(type, provisionedBy);
    expect(describeIdShape(shape)).toBe(described);
    expect(exampleId(shape, where)).toBe(example);
  });
});

describe('idIsGlobal: one id names one resource in every region', () => {
  it.each([
    ['AWS::S3::Bucket', true],
    ['AWS::S3::BucketPolicy', true],
    ['AWS::IAM::Role', true],
    ['AWS::CloudFront::Distribution', true],
    ['AWS::DynamoDB::Table', false],
    ['AWS::SQS::Queue', false],
    ['AWS::Lambda::Permission', false],
    ['Custom::Thing', false],
  ])('%s -> %s', (type, global) => {
    expect(idIsGlobal(type)).toBe(global);
  });
});

import { describe, expect, it } from 'vitest';
import { requestAction } from '../../../src/sandbox/policy/request-action.js';
import { passedRoles, requestResources } from '../../../src/sandbox/policy/request-resource.js';
import type { SandboxRequest } from '../../../src/sandbox/request.js';

const ACCOUNT = '222222222222';

function request(options: {
  method?: string;
  path?: string;
  query?: Record<string, string>;
  json?: unknown;
  service?: string;
}): SandboxRequest {
  const form = options.query && options.method !== 'GET';
  const body = form
    ? new URLSearchParams(options.query).toString()
    : options.json !== undefined
      ? JSON.stringify(options.json)
      : '';
  return {
    method: options.method ?? 'POST',
    path: options.path ?? '/',
    query: new URLSearchParams(form ? {} : options.query),
    headers: {
      host: '127.0.0.1:4566',
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/x-amz-json-1.0',
    },
    body: Buffer.from(body),
    service: options.service ?? '',
    region: 'us-east-1',
    accessKeyId: ACCOUNT,
    accountId: ACCOUNT,
    requestId: 'r',
  };
}

describe('requestAction: the action IAM authorizes a call as', () => {
  it.each<[string, string, string, string]>([
    ['the signing name and operation', 'sqs', 'CreateQueue', 'sqs:CreateQueue'],
    [
      "Cloud Control's actions are CloudFormation's",
      'cloudcontrolapi',
      'CreateResource',
      'cloudformation:CreateResource',
    ],
    ["CloudWatch's signing name differs", 'monitoring', 'PutMetricAlarm', 'cloudwatch:PutMetricAlarm'],
    ['S3 lists objects as ListBucket', 's3', 'ListObjectsV2', 's3:ListBucket'],
    ['S3 reads a head as GetObject', 's3', 'HeadObject', 's3:GetObject'],
    ['S3 encryption settings', 's3', 'PutBucketEncryption', 's3:PutEncryptionConfiguration'],
    ["Lambda's Invoke is InvokeFunction", 'lambda', 'Invoke', 'lambda:InvokeFunction'],
  ])('%s', (_name, service, operation, expected) => {
    expect(requestAction(service, operation, request({}))).toBe(expected);
  });

  it("API Gateway's management API is authorized by HTTP method", () => {
    expect(requestAction('apigateway', 'CreateRestApi', request({ method: 'POST' }))).toBe('apigateway:POST');
  });
});

describe('requestResources: the ARN a call names plainly', () => {
  it.each<[string, string, string, Parameters<typeof request>[0], string[] | undefined]>([
    ['an S3 bucket', 's3', 'CreateBucket', { method: 'PUT', path: '/my-bucket' }, ['arn:aws:s3:::my-bucket']],
    [
      'an S3 object',
      's3',
      'PutObject',
      { method: 'PUT', path: '/my-bucket/a/b%20c.txt' },
      ['arn:aws:s3:::my-bucket/a/b c.txt'],
    ],
    ['ListBuckets names none', 's3', 'ListBuckets', { method: 'GET', path: '/' }, undefined],
    [
      'an SQS queue by URL',
      'sqs',
      'DeleteQueue',
      { json: { QueueUrl: `http://127.0.0.1:4566/${ACCOUNT}/jobs` } },
      [`arn:aws:sqs:us-east-1:${ACCOUNT}:jobs`],
    ],
    [
      'an SQS queue by name',
      'sqs',
      'CreateQueue',
      { json: { QueueName: 'jobs' } },
      [`arn:aws:sqs:us-east-1:${ACCOUNT}:jobs`],
    ],
    [
      'an SNS topic by ARN',
      'sns',
      'Publish',
      { query: { Action: 'Publish', TopicArn: 'arn:aws:sns:us-east-1:333333333333:t' } },
      ['arn:aws:sns:us-east-1:333333333333:t'],
    ],
    [
      'an SNS topic by name',
      'sns',
      'CreateTopic',
      { query: { Action: 'CreateTopic', Name: 't' } },
      [`arn:aws:sns:us-east-1:${ACCOUNT}:t`],
    ],
    [
      'a DynamoDB table',
      'dynamodb',
      'CreateTable',
      { json: { TableName: 'items' } },
      [`arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/items`],
    ],
    [
      'a Lambda function in the path',
      'lambda',
      'GetFunction',
      { method: 'GET', path: '/2015-03-31/functions/worker' },
      [`arn:aws:lambda:us-east-1:${ACCOUNT}:function:worker`],
    ],
    [
      'a Lambda function being made',
      'lambda',
      'CreateFunction',
      { path: '/2015-03-31/functions', json: { FunctionName: 'worker' } },
      [`arn:aws:lambda:us-east-1:${ACCOUNT}:function:worker`],
    ],
    [
      'an IAM role',
      'iam',
      'CreateRole',
      { query: { Action: 'CreateRole', RoleName: 'r', Path: '/ops/' } },
      [`arn:aws:iam::${ACCOUNT}:role/ops/r`],
    ],
    [
      'an IAM policy',
      'iam',
      'GetPolicy',
      { query: { Action: 'GetPolicy', PolicyArn: `arn:aws:iam::${ACCOUNT}:policy/p` } },
      [`arn:aws:iam::${ACCOUNT}:policy/p`],
    ],
    [
      'an SSM parameter',
      'ssm',
      'PutParameter',
      { json: { Name: '/app/flag' } },
      [`arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/app/flag`],
    ],
    [
      'SSM parameters, each',
      'ssm',
      'GetParameters',
      { json: { Names: ['a', '/b'] } },
      [`arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/a`, `arn:aws:ssm:us-east-1:${ACCOUNT}:parameter/b`],
    ],
    [
      'a log group',
      'logs',
      'CreateLogGroup',
      { json: { logGroupName: '/aws/lambda/f' } },
      [`arn:aws:logs:us-east-1:${ACCOUNT}:log-group:/aws/lambda/f:log-stream:`],
    ],
    [
      'a KMS key',
      'kms',
      'DescribeKey',
      { json: { KeyId: '1234abcd' } },
      [`arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd`],
    ],
    [
      'a KMS alias',
      'kms',
      'DescribeKey',
      { json: { KeyId: 'alias/app' } },
      [`arn:aws:kms:us-east-1:${ACCOUNT}:alias/app`],
    ],
    [
      'a CloudFormation stack',
      'cloudformation',
      'CreateStack',
      { query: { Action: 'CreateStack', StackName: 's' } },
      [`arn:aws:cloudformation:us-east-1:${ACCOUNT}:stack/s/`],
    ],
    [
      'Cloud Control names none (its actions take *)',
      'cloudcontrolapi',
      'CreateResource',
      { json: { TypeName: 'AWS::SQS::Queue' } },
      undefined,
    ],
    [
      'a service the sandbox derives nothing for',
      'ec2',
      'CreateVpc',
      { query: { Action: 'CreateVpc' } },
      undefined,
    ],
  ])('%s', (_name, service, operation, shape, expected) => {
    expect(requestResources(request(shape), service, operation)).toEqual(expected);
  });
});

describe('passedRoles: a role a call hands to the service', () => {
  it.each<[string, string, Parameters<typeof request>[0], string[]]>([
    [
      "a function's execution role",
      'lambda',
      { json: { Role: 'arn:aws:iam::1:role/f' } },
      ['arn:aws:iam::1:role/f'],
    ],
    [
      "a stack's service role",
      'cloudformation',
      { query: { Action: 'CreateStack', RoleARN: 'arn:aws:iam::1:role/s' } },
      ['arn:aws:iam::1:role/s'],
    ],
    ['none named', 'lambda', { json: { FunctionName: 'f' } }, []],
    ['a service that takes none', 'sqs', { json: { Role: 'arn:aws:iam::1:role/x' } }, []],
  ])('%s', (_name, service, shape, expected) => {
    expect(passedRoles(request(shape), service)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import {
  arnOfAnotherService,
  importedProperties,
  physicalIdForName,
  templateNameMismatch,
} from '../../src/engine/import-rules.js';

const where = { region: 'us-east-1', accountId: '123456789012' };

describe('arnOfAnotherService: an id of the wrong type', () => {
  it.each([
    ['AWS::S3::Bucket', 'arn:aws:sqs:us-east-1:1:q', 'sqs'],
    ['AWS::SQS::Queue', 'arn:aws:sns:us-east-1:1:t', 'sns'],
    ['AWS::SNS::Topic', 'arn:aws:sns:us-east-1:1:t', undefined],
    [
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/a/b',
      undefined,
    ],
    ['AWS::S3::Bucket', 'my-bucket', undefined],
    ['AWS::Unlisted::Thing', 'arn:aws:sqs:us-east-1:1:q', undefined],
  ])('%s given %s -> %s', (type, id, expected) => {
    expect(arnOfAnotherService(type, id)).toBe(expected);
  });
});

describe('templateNameMismatch: the template names another resource', () => {
  it.each([
    ['AWS::S3::Bucket', { BucketName: 'a' }, 'a', undefined],
    ['AWS::S3::Bucket', { BucketName: 'a' }, 'b', 'a'],
    ['AWS::S3::Bucket', {}, 'b', undefined],
    ['AWS::SQS::Queue', { QueueName: 'q' }, 'https://sqs.us-east-1.amazonaws.com/1/q', undefined],
    ['AWS::SQS::Queue', { QueueName: 'q' }, 'https://sqs.us-east-1.amazonaws.com/1/other', 'q'],
    ['AWS::RDS::DBCluster', { DBClusterIdentifier: 'MyCluster' }, 'mycluster', undefined],
    ['AWS::IAM::Role', { RoleName: 'r' }, 'other', undefined],
    ['AWS::S3::Bucket', { BucketName: '{{cdkd:pending:X}}' }, 'b', undefined],
  ])('%s %j given %s -> %s', (type, desired, id, expected) => {
    expect(templateNameMismatch(type, desired, id)).toBe(expected);
  });
});

describe('physicalIdForName: what import looks for without --resource', () => {
  it.each([
    ['AWS::S3::Bucket', { BucketName: 'b' }, 'b'],
    ['AWS::DynamoDB::Table', { TableName: 't' }, 't'],
    ['AWS::SNS::Topic', { TopicName: 't' }, 'arn:aws:sns:us-east-1:123456789012:t'],
    ['AWS::SQS::Queue', { QueueName: 'q' }, undefined],
    ['AWS::SecretsManager::Secret', { Name: 's' }, undefined],
    ['AWS::IAM::Role', { RoleName: 'r' }, undefined],
    ['AWS::Events::Rule', { Name: 'r' }, undefined],
    ['AWS::S3::Bucket', {}, undefined],
    ['AWS::S3::Bucket', { BucketName: '' }, undefined],
    ['AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }, undefined],
  ])('%s %j -> %s', (type, desired, expected) => {
    expect(physicalIdForName(type, desired, where)).toBe(expected);
  });
});

describe('importedProperties: what the record says was applied', () => {
  it('takes the template (masked) value where AWS holds it, and ignores what the template leaves out', () => {
    const result = importedProperties(
      { Name: 'n', Secret: 'real' },
      { Name: 'n', Secret: '***' },
      { Name: 'n', Secret: 'real', Extra: 1 },
    );
    expect(result).toEqual({
      properties: { Name: 'n', Secret: '***' },
      hashed: { Name: 'n', Secret: 'real' },
      differing: [],
    });
  });

  it('records what AWS holds where it differs, and leaves out what AWS does not hold', () => {
    const result = importedProperties(
      { A: { x: 1 }, B: 2, C: 3 },
      { A: { x: 1 }, B: 2, C: 3 },
      { A: { x: 1 }, B: 5 },
    );
    expect(result).toEqual({
      properties: { A: { x: 1 }, B: 5 },
      hashed: { A: { x: 1 }, B: 5 },
      differing: ['B', 'C'],
    });
  });

  it('compares regardless of key order', () => {
    expect(
      importedProperties({ A: { x: 1, y: 2 } }, { A: { x: 1, y: 2 } }, { A: { y: 2, x: 1 } }).differing,
    ).toEqual([]);
  });
});

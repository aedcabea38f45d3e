import { describe, expect, it } from 'vitest';
import {
  duplicateChoice,
  idShapeRefusal,
  importedProperties,
  physicalIdForName,
  sameResource,
  templateNameMismatch,
} from '../../src/engine/import/import-rules.js';

const where = { region: 'us-east-1', accountId: '123456789012' };

describe('sameResource: two names of one resource', () => {
  const at = (type: string, physicalId: string, region = 'us-east-1') => ({ type, physicalId, region });
  it.each([
    [at('AWS::S3::Bucket', 'data'), at('AWS::S3::Bucket', 'data'), true],
    [at('AWS::S3::Bucket', 'data'), at('AWS::S3::Bucket', 'Data'), false],
    [at('AWS::S3::Bucket', 'data'), at('AWS::S3::BucketPolicy', 'data'), false],
    // Spec 000: the types AWS matches regardless of case compare their ids that way.
    [at('AWS::IAM::Role', 'MyRole'), at('AWS::IAM::Role', 'myrole'), true],
    [at('AWS::RDS::DBCluster', 'MyCluster'), at('AWS::RDS::DBCluster', 'mycluster'), true],
    [at('AWS::Glue::Table', 'Ärger'), at('AWS::Glue::Table', 'ärger'), false],
    [at('AWS::DynamoDB::Table', 'Orders'), at('AWS::DynamoDB::Table', 'orders'), false],
    // A global id names one resource everywhere; a regional one only in its region.
    [at('AWS::S3::Bucket', 'data', 'us-east-1'), at('AWS::S3::Bucket', 'data', 'eu-west-1'), true],
    [at('AWS::IAM::Role', 'r', 'us-east-1'), at('AWS::IAM::Role', 'r', 'eu-west-1'), true],
    [at('AWS::DynamoDB::Table', 't', 'us-east-1'), at('AWS::DynamoDB::Table', 't', 'eu-west-1'), false],
    [at('AWS::DynamoDB::Table', 't', 'eu-west-1'), at('AWS::DynamoDB::Table', 't', 'eu-west-1'), true],
  ])('%j and %j -> %s', (a, b, same) => {
    expect(sameResource(a, b)).toBe(same);
  });
});

describe('duplicateChoice: one resource given under two logical ids of one command', () => {
  const choice = (logicalId: string, type: string, physicalId: string) => ({
    logicalId,
    type,
    physicalId,
    region: 'us-east-1',
  });
  it('names the first pair that is one resource', () => {
    const a = choice('A', 'AWS::IAM::Role', 'Shared');
    const b = choice('B', 'AWS::S3::Bucket', 'shared');
    const c = choice('C', 'AWS::IAM::Role', 'shared');
    expect(duplicateChoice([a, b, c])).toEqual([a, c]);
  });

  it('finds none among distinct resources', () => {
    expect(
      duplicateChoice([choice('A', 'AWS::S3::Bucket', 'a'), choice('B', 'AWS::S3::Bucket', 'b')]),
    ).toBeUndefined();
  });
});

describe("idShapeRefusal: the problem, the shape expected and an example in the stack's account", () => {
  it('explains a queue name given where the queue URL is the id', () => {
    expect(idShapeRefusal('AWS::SQS::Queue', 'sdk', 'my-queue', where)).toEqual({
      problem: "it cannot be the queue's URL",
      expected: "the queue's URL",
      example: 'https://sqs.us-east-1.amazonaws.com/123456789012/my-queue',
      tip: 'aws sqs get-queue-url --queue-name <name> prints it',
    });
  });

  it('uses the partition of the region', () => {
    expect(
      idShapeRefusal('AWS::SNS::Topic', 'sdk', 't', { region: 'cn-north-1', accountId: '123456789012' })
        ?.example,
    ).toBe('arn:aws-cn:sns:cn-north-1:123456789012:my-topic');
  });

  it('accepts an id of the right shape', () => {
    expect(
      idShapeRefusal('AWS::SQS::Queue', 'sdk', 'https://sqs.us-east-1.amazonaws.com/123456789012/q', where),
    ).toBeUndefined();
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

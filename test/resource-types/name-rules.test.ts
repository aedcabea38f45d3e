import { describe, expect, it } from 'vitest';
import { createCollisionError } from '../../src/engine/planning/name-check.js';
import { arnFromNameOf, globalNameOf, parentPrefixedIdOf } from '../../src/resource-types/index.js';

describe('name rules in the catalog', () => {
  const place = { partition: 'aws-cn', region: 'cn-north-1', accountId: '123456789012' };
  it.each([
    ['AWS::SNS::Topic', 'arn:aws-cn:sns:cn-north-1:123456789012:orders'],
    ['AWS::S3::Bucket', undefined],
    ['toString', undefined],
  ])('%s: the id a name stands for is the ARN %s', (type, expected) => {
    expect(arnFromNameOf(type)?.('orders', place)).toBe(expected);
  });
  it.each([
    ['AWS::S3::Bucket', { noun: 'bucket', nameProperty: 'BucketName' }],
    ['AWS::SQS::Queue', undefined],
    ['toString', undefined],
  ])('%s: names unique across accounts %j', (type, expected) => {
    expect(globalNameOf(type)).toEqual(expected);
  });

  it.each([
    ['AWS::Glue::Table', { parentProperty: 'DatabaseName', separator: '|' }],
    ['AWS::Glue::Database', undefined],
  ])('%s: parent-prefixed id %j', (type, expected) => {
    expect(parentPrefixedIdOf(type)).toEqual(expected);
  });
});

describe('a create under a taken global name (spec 002, "Creates under a taken name")', () => {
  const check = { kind: 'held', name: 'assets', holder: 'assets' } as const;

  it('names the bucket and its name property, and offers no import of what may be another account', () => {
    const error = createCollisionError({ stackName: 'S', logicalId: 'B', type: 'AWS::S3::Bucket', check });
    expect(error.message).toBe(
      'Cannot create B (AWS::S3::Bucket): a bucket named assets already exists (in this account or another). Nothing was created.',
    );
    expect(error.hint).toBe(
      'Delete that bucket if it is yours, or give B another BucketName, then re-run the deploy.',
    );
  });

  it('offers the import for a type whose names are per account', () => {
    const error = createCollisionError({ stackName: 'S', logicalId: 'Q', type: 'AWS::SQS::Queue', check });
    expect(error.message).toContain('cdkd import S --resource Q=assets');
  });
});

import { describe, expect, it } from 'vitest';
import { isKnownType, isStateful, schemaFor, statefulnessOf } from '../../src/resource-types/schemas.js';
import { STATEFUL_TYPE_TABLE } from '../../src/resource-types/statefulness.js';

describe("spec 002's stateful-type list", () => {
  it.each(STATEFUL_TYPE_TABLE.map(([type, verdict, why]) => [type, verdict, why]))(
    '%s is %s (%s)',
    (type, verdict) => {
      expect(isKnownType(type)).toBe(true);
      expect(statefulnessOf(type)).toBe(verdict);
    },
  );

  it.each([
    ['AWS::SQS::Queue: "a queue\'s backlog is transient" overrides the service spec', 'AWS::SQS::Queue'],
    ['AWS::EC2::Instance: "an instance\'s root volume is ephemeral by design"', 'AWS::EC2::Instance'],
    ['AWS::KMS::Alias: "deleting an alias removes a pointer, not key material"', 'AWS::KMS::Alias'],
    ['AWS::S3Tables::Namespace: "deliberately not guarded"', 'AWS::S3Tables::Namespace'],
  ])('%s', (_name, type) => {
    expect(isStateful(type)).toBe(false);
  });

  it('marks the service spec as stateful for SQS::Queue, which the table overrides', () => {
    expect(schemaFor('AWS::SQS::Queue')?.specStateful).toBe(true);
  });

  it.each([
    ['a type only the service spec flags falls back to it', 'AWS::DynamoDB::Table', 'stateful'],
    ['a type neither names is not stateful', 'AWS::SNS::Topic', 'not-stateful'],
    ['an unknown type is not stateful', 'Custom::Thing', 'not-stateful'],
  ])('%s', (_name, type, verdict) => {
    expect(statefulnessOf(type)).toBe(verdict);
  });

  it('counts a conditionally stateful type as stateful when nothing settles it', () => {
    expect(isStateful('AWS::S3::Bucket')).toBe(true);
    expect(isStateful('AWS::Logs::LogGroup')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { hasPositiveRetention } from '../../src/plan/guards/log-group-retention.js';
import { decideNameCollision, type CollisionInput } from '../../src/plan/guards/name-collision.js';
import {
  checkStatefulReplacements,
  emptinessProbeTargets,
  statefulOutcome,
  type StatefulOutcome,
  type StatefulTarget,
} from '../../src/plan/guards/stateful-replace.js';
import type { RecordedResource } from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

describe('the stateful-resource guard (spec 002)', () => {
  it.each<[string, StatefulTarget, boolean, StatefulOutcome]>([
    [
      'a stateful type is refused until --force-stateful-recreation',
      { type: 'AWS::DynamoDB::Table' },
      false,
      'blocked',
    ],
    ['with the flag it proceeds, shown as DATA LOSS', { type: 'AWS::DynamoDB::Table' }, true, 'data-loss'],
    [
      'UpdateReplacePolicy: Retain is exempt from the consent flag (the old resource is orphaned)',
      { type: 'AWS::DynamoDB::Table', updateReplacePolicy: 'Retain' },
      false,
      'retained',
    ],
    ['AWS::SQS::Queue is deliberately not guarded', { type: 'AWS::SQS::Queue' }, false, 'allowed'],
    ['a type off the list is not guarded', { type: 'AWS::SNS::Topic' }, false, 'allowed'],
    ['S3: empty buckets pass through', { type: 'AWS::S3::Bucket', emptiness: 'empty' }, false, 'allowed'],
    ['S3: non-empty ones are refused', { type: 'AWS::S3::Bucket', emptiness: 'non-empty' }, false, 'blocked'],
    [
      'S3: a bucket AWS reports as not existing passes through silently',
      { type: 'AWS::S3::Bucket', emptiness: 'not-found' },
      false,
      'allowed',
    ],
    [
      'S3: the probe fails open (emptiness NOT established)',
      { type: 'AWS::S3::Bucket', emptiness: 'probe-failed' },
      false,
      'emptiness-unknown',
    ],
    ['S3: an emptiness nothing measured is not an emptiness', { type: 'AWS::S3::Bucket' }, false, 'blocked'],
    [
      '--force-stateful-recreation skips the probes: every bucket is shown as data-bearing',
      { type: 'AWS::S3::Bucket', emptiness: 'empty' },
      true,
      'data-loss',
    ],
    [
      'log group: zero streams proves it empty',
      { type: 'AWS::Logs::LogGroup', emptiness: 'empty' },
      false,
      'allowed',
    ],
    [
      'log group: ResourceNotFoundException (region confirmed) clears the guard',
      { type: 'AWS::Logs::LogGroup', emptiness: 'not-found' },
      false,
      'allowed',
    ],
    [
      'log group: the probe fails CLOSED',
      { type: 'AWS::Logs::LogGroup', emptiness: 'probe-failed' },
      false,
      'blocked',
    ],
    [
      'log group: mid-deploy, where no probe can run, it counts as stateful',
      { type: 'AWS::Logs::LogGroup' },
      false,
      'blocked',
    ],
    [
      'log group: a positive RetentionInDays settles the guard whatever the probe says',
      { type: 'AWS::Logs::LogGroup', hasRetention: true, emptiness: 'empty' },
      false,
      'blocked',
    ],
  ])('%s', (_name, target, force, outcome) => {
    expect(statefulOutcome(target, force)).toBe(outcome);
  });
});

describe('log group retention: which retention cdkd reads (spec 002)', () => {
  const bags = (properties: Record<string, unknown>, observedProperties?: Record<string, unknown>) =>
    ({ properties, ...(observedProperties && { observedProperties }) }) as RecordedResource;
  it.each<[string, RecordedResource, boolean]>([
    ['a positive RetentionInDays in properties', bags({ RetentionInDays: 30 }), true],
    [
      'a positive RetentionInDays in observedProperties (set out of band)',
      bags({}, { RetentionInDays: 7 }),
      true,
    ],
    [
      'a zero in one bag never cancels a positive in the other',
      bags({ RetentionInDays: 0 }, { RetentionInDays: 14 }),
      true,
    ],
    ["the value is coerced: '30' counts as 30", bags({ RetentionInDays: '30' }), true],
    ["Number() is wider than CloudFormation: '0x1e' counts", bags({ RetentionInDays: '0x1e' }), true],
    ['unset is never-expire: no retention', bags({}), false],
    ['zero is never-expire: no retention', bags({ RetentionInDays: 0 }, { RetentionInDays: '0' }), false],
    ['a non-number is filtered out', bags({ RetentionInDays: 'forever' }), false],
  ])('%s', (_name, record, expected) => {
    expect(hasPositiveRetention(record)).toBe(expected);
  });
});

describe('the guard over a plan', () => {
  const plan = buildPlan(
    {
      desired: [
        desired('Table', 'AWS::DynamoDB::Table', { TableName: 'b' }),
        desired('Bucket', 'AWS::S3::Bucket', { BucketName: 'b2' }),
        desired('Logs', 'AWS::Logs::LogGroup', { LogGroupName: 'l2' }),
        desired('Kept', 'AWS::DynamoDB::Table', { TableName: 'k2' }, { updateReplacePolicy: 'Retain' }),
      ],
      recorded: {
        Table: recorded('AWS::DynamoDB::Table', { TableName: 'a' }),
        Bucket: recorded('AWS::S3::Bucket', { BucketName: 'b1' }, { physicalId: 'b1' }),
        Logs: recorded(
          'AWS::Logs::LogGroup',
          { LogGroupName: 'l1' },
          { physicalId: 'l1', observedProperties: { RetentionInDays: 3 } },
        ),
        Kept: recorded('AWS::DynamoDB::Table', { TableName: 'k1' }),
      },
    },
    allProviders,
  );
  const records = {
    Bucket: recorded('AWS::S3::Bucket', {}, { physicalId: 'b1' }),
    Logs: recorded('AWS::Logs::LogGroup', {}, { observedProperties: { RetentionInDays: 3 } }),
  };

  it('is refused after the diff and before any resource is touched (STATEFUL_REPLACE_BLOCKED), naming each', () => {
    expect(() =>
      checkStatefulReplacements({
        operations: plan.operations,
        recorded: records,
        forceStatefulRecreation: false,
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'STATEFUL_REPLACE_BLOCKED',
        message: expect.stringMatching(/Table \(AWS::DynamoDB::Table\).*Bucket.*Logs/),
        hint: expect.stringContaining('--force-stateful-recreation'),
      }),
    );
  });

  it('lists only the conditionally stateful resources a probe can still settle', () => {
    expect(emptinessProbeTargets(plan.operations, records)).toEqual([
      { logicalId: 'Bucket', type: 'AWS::S3::Bucket', physicalId: 'b1' },
    ]);
  });

  it('with the flag, returns a verdict per recreated resource for the DATA LOSS rows', () => {
    const verdicts = checkStatefulReplacements({
      operations: plan.operations,
      recorded: records,
      forceStatefulRecreation: true,
    });
    expect(verdicts.map((v) => [v.logicalId, v.outcome])).toEqual([
      ['Table', 'data-loss'],
      ['Bucket', 'data-loss'],
      ['Logs', 'data-loss'],
      ['Kept', 'retained'],
    ]);
  });

  it('a stateful reader that would be replaced needs --force-stateful-recreation, named as a reader', () => {
    const readerPlan = buildPlan(
      {
        desired: [
          desired('Vpc', 'AWS::EC2::VPC', { CidrBlock: '10.1.0.0/16' }),
          desired(
            'Cluster',
            'AWS::RDS::DBCluster',
            { DBSubnetGroupName: 'x' },
            {
              dependencies: ['Vpc'],
              reads: [{ target: 'Vpc', property: 'DBSubnetGroupName', via: 'getatt' }],
            },
          ),
          desired(
            'RetainedCluster',
            'AWS::RDS::DBCluster',
            { DBSubnetGroupName: 'x' },
            {
              dependencies: ['Vpc'],
              updateReplacePolicy: 'Retain',
              reads: [{ target: 'Vpc', property: 'DBSubnetGroupName', via: 'getatt' }],
            },
          ),
        ],
        recorded: {
          Vpc: recorded('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }),
          Cluster: recorded('AWS::RDS::DBCluster', { DBSubnetGroupName: 'x' }),
          RetainedCluster: recorded('AWS::RDS::DBCluster', { DBSubnetGroupName: 'x' }),
        },
      },
      allProviders,
    );
    const run = () =>
      checkStatefulReplacements({
        operations: readerPlan.operations,
        recorded: {},
        forceStatefulRecreation: false,
      });
    expect(run).toThrow(
      expect.objectContaining({
        message: expect.stringContaining('Cluster (AWS::RDS::DBCluster), a reader of Vpc.'),
      }),
    );
    expect(run).toThrow(expect.objectContaining({ message: expect.not.stringContaining('RetainedCluster') }));
  });
});

describe('name collisions: a replacement whose create collides (spec 002)', () => {
  const base: CollisionInput = {
    oldType: 'AWS::SQS::Queue',
    newType: 'AWS::SQS::Queue',
    replace: true,
    oldHoldsName: true,
  };
  it.each<[string, Partial<CollisionInput>, string, boolean?]>([
    ['with --replace, proven to hold the name: the old resource is deleted first', {}, 'delete-old-first'],
    [
      'without --replace: NAMED_REPLACEMENT_COLLISION, advising --replace',
      { replace: false },
      'NAMED_REPLACEMENT_COLLISION',
      true,
    ],
    [
      'UpdateReplacePolicy: Retain hard-fails regardless of --replace',
      { updateReplacePolicy: 'Retain' },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'when the check cannot decide: fails, without advising --replace',
      { oldHoldsName: 'unknown' },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'without --replace, when the check fails: fails without advising --replace, which would refuse the same way',
      { replace: false, oldHoldsName: false },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'without --replace, a pair that shares no name space: fails without advising --replace',
      { replace: false, oldType: 'AWS::SSM::Parameter', newType: 'AWS::Logs::LogGroup' },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'UpdateReplacePolicy: Retain hard-fails without --replace too',
      { replace: false, updateReplacePolicy: 'Retain' },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'when the check fails: nothing is deleted',
      { oldHoldsName: false },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'Under --replace, a Type change between types that share one name space deletes first (RDS ↔ Neptune clusters)',
      { oldType: 'AWS::RDS::DBCluster', newType: 'AWS::Neptune::DBCluster' },
      'delete-old-first',
    ],
    [
      'DynamoDB tables and global tables share one name space',
      { oldType: 'AWS::DynamoDB::Table', newType: 'AWS::DynamoDB::GlobalTable' },
      'delete-old-first',
    ],
    [
      'any other pair fails with nothing deleted',
      { oldType: 'AWS::SSM::Parameter', newType: 'AWS::Logs::LogGroup' },
      'NAMED_REPLACEMENT_COLLISION',
      false,
    ],
    [
      'two custom resource types with an equal id: NAMED_REPLACEMENT_IDEMPOTENT_CREATE',
      { oldType: 'Custom::A', newType: 'Custom::B', equalCustomResourceId: true, replace: false },
      'NAMED_REPLACEMENT_IDEMPOTENT_CREATE',
      true,
    ],
    [
      '--replace deletes the old custom resource first instead',
      { oldType: 'Custom::A', newType: 'AWS::CloudFormation::CustomResource', equalCustomResourceId: true },
      'delete-old-first',
    ],
  ])('%s', (_name, overrides, expected, adviseReplace) => {
    const decision = decideNameCollision({ ...base, ...overrides });
    if (expected === 'delete-old-first') {
      expect(decision).toEqual({ action: 'delete-old-first' });
    } else {
      expect(decision).toMatchObject({ action: 'refuse', code: expected, adviseReplace });
    }
  });
});

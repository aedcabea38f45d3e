import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import type { DesiredResource, PlannedOperation, RecordedResource } from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

/** A VPC whose CidrBlock change replaces it, and the resources that read it. */
function planWith(readers: DesiredResource[], extraRecords: Record<string, RecordedResource> = {}) {
  const vpc = desired('Vpc', 'AWS::EC2::VPC', { CidrBlock: '10.1.0.0/16' });
  const records: Record<string, RecordedResource> = {
    Vpc: recorded('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }),
    ...extraRecords,
  };
  for (const reader of readers) records[reader.logicalId] ??= recorded(reader.type, reader.properties);
  const plan = buildPlan({ desired: [vpc, ...readers], recorded: records }, allProviders);
  return new Map(plan.operations.map((op) => [op.logicalId, op]));
}

const op = (ops: Map<string, PlannedOperation>, id: string) => ops.get(id) as PlannedOperation;

describe('resources that follow a recreated resource (spec 002 "Readers of the target")', () => {
  it('a reader whose referencing property can be updated in place is updated to the new id', () => {
    const ops = planWith([
      desired(
        'Param',
        'AWS::SSM::Parameter',
        { Value: 'vpc-old' },
        {
          dependencies: ['Vpc'],
          reads: [{ target: 'Vpc', property: 'Value', via: 'ref' }],
        },
      ),
    ]);
    expect(op(ops, 'Vpc').kind).toBe('replace');
    expect(op(ops, 'Param')).toMatchObject({
      kind: 'update',
      reresolveAfter: ['Vpc'],
      replacedIfIdChanges: false,
      reason: 'reads Vpc (Value via ref), which is replaced: re-resolved after it',
    });
  });

  it('a reader whose referencing property is create-only is replaced, and so are its create-only readers in turn', () => {
    const ops = planWith([
      desired(
        'Subnet',
        'AWS::EC2::Subnet',
        { VpcId: 'vpc-old', CidrBlock: '10.0.0.0/24' },
        {
          dependencies: ['Vpc'],
          reads: [{ target: 'Vpc', property: 'VpcId', via: 'ref' }],
        },
      ),
      desired(
        'Instance',
        'AWS::EC2::Instance',
        { SubnetId: 'subnet-old' },
        {
          dependencies: ['Subnet'],
          reads: [{ target: 'Subnet', property: 'SubnetId', via: 'ref' }],
        },
      ),
    ]);
    expect(op(ops, 'Subnet')).toMatchObject({ replacedIfIdChanges: true, reresolveAfter: ['Vpc'] });
    expect(op(ops, 'Instance')).toMatchObject({ replacedIfIdChanges: true, reresolveAfter: ['Subnet'] });
    expect(op(ops, 'Instance').reason).toContain('which may be replaced');
  });

  it('the plan counts every reader as an update, since whether the id moves is known only once the target is recreated', () => {
    const ops = planWith([
      desired(
        'Subnet',
        'AWS::EC2::Subnet',
        { VpcId: 'vpc-old' },
        {
          dependencies: ['Vpc'],
          reads: [{ target: 'Vpc', property: 'VpcId', via: 'ref' }],
        },
      ),
    ]);
    expect(op(ops, 'Subnet').kind).toBe('update');
  });

  it('a reader that changed for its own reasons keeps its kind and gains the re-resolve note', () => {
    const ops = planWith(
      [
        desired(
          'Param',
          'AWS::SSM::Parameter',
          { Value: 'vpc-old', Description: 'new' },
          {
            dependencies: ['Vpc'],
            reads: [{ target: 'Vpc', property: 'Value', via: 'getatt' }],
          },
        ),
      ],
      { Param: recorded('AWS::SSM::Parameter', { Value: 'vpc-old', Description: 'old' }) },
    );
    expect(op(ops, 'Param')).toMatchObject({
      kind: 'update',
      changedProperties: ['Description'],
      reresolveAfter: ['Vpc'],
    });
    expect(op(ops, 'Param').notes).toEqual([
      'reads Vpc (Value via getatt), which is replaced: re-resolved after it',
    ]);
  });

  describe('a target whose physical id is its name, fixed as a literal and equal to the recorded one', () => {
    // PackageType is create-only; FunctionName is the Ref identifier and unchanged.
    function fixedNamePlan(via: 'ref' | 'getatt') {
      const fn = desired('Fn', 'AWS::Lambda::Function', { FunctionName: 'my-fn', PackageType: 'Image' });
      const reader = desired(
        'Param',
        'AWS::SSM::Parameter',
        { Value: 'x' },
        {
          dependencies: ['Fn'],
          reads: [{ target: 'Fn', property: 'Value', via }],
        },
      );
      const plan = buildPlan(
        {
          desired: [fn, reader],
          recorded: {
            Fn: recorded(
              'AWS::Lambda::Function',
              { FunctionName: 'my-fn', PackageType: 'Zip' },
              { physicalId: 'my-fn' },
            ),
            Param: recorded('AWS::SSM::Parameter', { Value: 'x' }),
          },
        },
        allProviders,
      );
      return new Map(plan.operations.map((o) => [o.logicalId, o]));
    }

    it('a reader that references it only by Ref is neither listed nor refused', () => {
      const ops = fixedNamePlan('ref');
      expect(op(ops, 'Fn').kind).toBe('replace');
      expect(op(ops, 'Param')).toMatchObject({ kind: 'no-op', reresolveAfter: [] });
    });

    it('a reader of one of its attributes still is', () => {
      expect(op(fixedNamePlan('getatt'), 'Param')).toMatchObject({ kind: 'update', reresolveAfter: ['Fn'] });
    });
  });

  it('a new resource reading a replaced one is created after it and re-resolved', () => {
    const withNew = buildPlan(
      {
        desired: [
          desired('Vpc', 'AWS::EC2::VPC', { CidrBlock: '10.1.0.0/16' }),
          desired(
            'New',
            'AWS::SSM::Parameter',
            { Value: 'vpc-old' },
            {
              dependencies: ['Vpc'],
              reads: [{ target: 'Vpc', property: 'Value', via: 'ref' }],
            },
          ),
        ],
        recorded: { Vpc: recorded('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }) },
      },
      allProviders,
    );
    expect(withNew.operations[1]).toMatchObject({
      logicalId: 'New',
      kind: 'create',
      dependsOn: ['Vpc'],
      reresolveAfter: ['Vpc'],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { renderPlanText } from '../../src/plan/render-plan.js';
import { UNRESOLVED_PROPERTIES } from '../../src/plan/unresolved.js';
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

  it('a target whose name is computed from a reference is treated as one whose id moves: its Ref readers follow', () => {
    // ChainA's Name reads the replaced Vpc, so the name it resolves to now is only the old one.
    const ops = planWith(
      [
        desired(
          'ChainA',
          'AWS::SSM::Parameter',
          { Name: '/a-vpc-old', Value: 'a' },
          { dependencies: ['Vpc'], reads: [{ target: 'Vpc', property: 'Name', via: 'ref' }] },
        ),
        desired(
          'ChainB',
          'AWS::SSM::Parameter',
          { Name: '/b/a-vpc-old', Value: 'b' },
          { dependencies: ['ChainA'], reads: [{ target: 'ChainA', property: 'Name', via: 'ref' }] },
        ),
      ],
      {
        ChainA: recorded(
          'AWS::SSM::Parameter',
          { Name: '/a-vpc-old', Value: 'a' },
          { physicalId: '/a-vpc-old' },
        ),
      },
    );
    expect(op(ops, 'ChainA')).toMatchObject({ kind: 'update', replacedIfIdChanges: true });
    expect(op(ops, 'ChainB')).toMatchObject({
      kind: 'update',
      replacedIfIdChanges: true,
      reresolveAfter: ['ChainA'],
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

  it('a resource the run recreates whatever its properties say (a --recreate-via-* target) is followed like a replaced one', () => {
    const plan = buildPlan(
      {
        desired: [
          desired('Vpc', 'AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }),
          desired(
            'Param',
            'AWS::SSM::Parameter',
            { Value: 'vpc-old' },
            { dependencies: ['Vpc'], reads: [{ target: 'Vpc', property: 'Value', via: 'ref' }] },
          ),
        ],
        recorded: {
          Vpc: recorded('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }),
          Param: recorded('AWS::SSM::Parameter', { Value: 'vpc-old' }),
        },
        recreateVia: { Vpc: 'cc-api' },
      },
      allProviders,
    );
    expect(plan.operations.find((o) => o.logicalId === 'Vpc')).toMatchObject({
      kind: 'replace',
      recreateVia: 'cc-api',
    });
    expect(plan.operations.find((o) => o.logicalId === 'Param')).toMatchObject({
      kind: 'update',
      reresolveAfter: ['Vpc'],
      reason: 'reads Vpc (Value via ref), which is replaced: re-resolved after it',
    });
  });
});

describe('children of a recreated parent (spec 002 "Children deleted with the target")', () => {
  /** A fixed-name function replaced on PackageType, with `children` beside it. */
  function withChildren(children: DesiredResource[], childRecords: Record<string, RecordedResource>) {
    const fn = desired('Fn', 'AWS::Lambda::Function', { FunctionName: 'my-fn', PackageType: 'Image' });
    const plan = buildPlan(
      {
        desired: [fn, ...children],
        recorded: {
          Fn: recorded(
            'AWS::Lambda::Function',
            { FunctionName: 'my-fn', PackageType: 'Zip' },
            { physicalId: 'my-fn', attributes: { Arn: 'arn:aws:lambda:us-east-1:0:function:my-fn' } },
          ),
          ...childRecords,
        },
      },
      allProviders,
    );
    return new Map(plan.operations.map((o) => [o.logicalId, o]));
  }

  it('a child that reads a fixed-name parent only by Ref is counted as an update and runs after it, not flagged as replaced', () => {
    const alias = desired(
      'Alias',
      'AWS::Lambda::Alias',
      { FunctionName: 'my-fn', Name: 'live', FunctionVersion: '$LATEST' },
      { dependencies: ['Fn'], reads: [{ target: 'Fn', property: 'FunctionName', via: 'ref' }] },
    );
    const ops = withChildren([alias], { Alias: recorded('AWS::Lambda::Alias', alias.properties) });
    expect(op(ops, 'Alias')).toMatchObject({
      kind: 'update',
      reresolveAfter: ['Fn'],
      replacedIfIdChanges: false,
      reason: 'lives on Fn: re-created with it if it keeps its id',
    });
  });

  it('a child naming its parent by a literal is found by its record and made to wait for the parent', () => {
    const permission = desired('Perm', 'AWS::Lambda::Permission', {
      FunctionName: 'arn:aws:lambda:us-east-1:0:function:my-fn',
      Action: 'lambda:InvokeFunction',
      Principal: 'sns.amazonaws.com',
    });
    const ops = withChildren([permission], {
      Perm: recorded('AWS::Lambda::Permission', permission.properties),
    });
    expect(op(ops, 'Perm')).toMatchObject({ kind: 'update', dependsOn: ['Fn'], reresolveAfter: ['Fn'] });
  });

  it('a resource that is no child of the parent type, reading it only by Ref, is left alone', () => {
    const param = desired(
      'Param',
      'AWS::SSM::Parameter',
      { Value: 'my-fn' },
      { dependencies: ['Fn'], reads: [{ target: 'Fn', property: 'Value', via: 'ref' }] },
    );
    const ops = withChildren([param], { Param: recorded('AWS::SSM::Parameter', param.properties) });
    expect(op(ops, 'Param').kind).toBe('no-op');
  });
});

describe('readers of a resource this deploy creates (planned as updates decided once it exists)', () => {
  function planNew(reader: DesiredResource, target: DesiredResource) {
    const plan = buildPlan(
      { desired: [target, reader], recorded: { [reader.logicalId]: recorded(reader.type, { Old: 1 }) } },
      allProviders,
    );
    return { plan, ops: new Map(plan.operations.map((o) => [o.logicalId, o])) };
  }

  it('one reading it into a create-only property is shown, and guarded, as possibly replaced', () => {
    const { plan, ops } = planNew(
      desired(
        'Subnet',
        'AWS::EC2::Subnet',
        { ...UNRESOLVED_PROPERTIES },
        {
          dependencies: ['NewVpc'],
          reads: [{ target: 'NewVpc', property: 'VpcId', via: 'ref' }],
        },
      ),
      desired('NewVpc', 'AWS::EC2::VPC', { CidrBlock: '10.9.0.0/16' }),
    );
    expect(op(ops, 'NewVpc').kind).toBe('create');
    expect(op(ops, 'Subnet')).toMatchObject({ kind: 'update', replacedIfIdChanges: true });
    expect(op(ops, 'Subnet').notes).toContain(
      'replaced if the value NewVpc gives it differs: VpcId is create-only',
    );
    expect(renderPlanText(plan)).toContain('Replaced if the id changes');
  });

  it('one reading it into a property updated in place (a stage of a new deployment) is a plain update', () => {
    const { ops } = planNew(
      desired(
        'Stage',
        'AWS::ApiGateway::Stage',
        { ...UNRESOLVED_PROPERTIES },
        {
          dependencies: ['Deployment2'],
          reads: [{ target: 'Deployment2', property: 'DeploymentId', via: 'ref' }],
        },
      ),
      desired('Deployment2', 'AWS::ApiGateway::Deployment', { RestApiId: 'api1' }),
    );
    expect(op(ops, 'Stage')).toMatchObject({ kind: 'update', replacedIfIdChanges: false, notes: [] });
  });
});

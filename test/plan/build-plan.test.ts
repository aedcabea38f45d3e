import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { UNRESOLVED_PROPERTIES } from '../../src/plan/unresolved.js';
import type {
  DesiredResource,
  PlanOptions,
  PlannedOperation,
  RecordedResource,
} from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

function planOne(
  want: DesiredResource,
  had: RecordedResource | undefined,
  options: PlanOptions = allProviders,
): PlannedOperation {
  const plan = buildPlan({ desired: [want], recorded: had ? { [want.logicalId]: had } : {} }, options);
  return plan.operations[0] as PlannedOperation;
}

describe('one resource: which strategy a changed resource gets (spec 004)', () => {
  it.each<[string, DesiredResource, RecordedResource | undefined, string, string[]]>([
    ['a resource new in the template is created', desired('Q', 'AWS::SQS::Queue'), undefined, 'create', []],
    [
      'a resource whose hash is unchanged is skipped',
      desired('Q', 'AWS::SQS::Queue', { VisibilityTimeout: 30 }),
      recorded('AWS::SQS::Queue', { VisibilityTimeout: 30 }),
      'no-op',
      [],
    ],
    [
      'keys in another order hash the same: skipped',
      desired('Q', 'AWS::SQS::Queue', { A: { x: 1, y: 2 }, B: 1 }),
      recorded('AWS::SQS::Queue', { B: 1, A: { y: 2, x: 1 } }),
      'no-op',
      [],
    ],
    [
      'in-place update: AWS::SQS::Queue VisibilityTimeout',
      desired('Q', 'AWS::SQS::Queue', { VisibilityTimeout: 60 }),
      recorded('AWS::SQS::Queue', { VisibilityTimeout: 30 }),
      'update',
      ['VisibilityTimeout'],
    ],
    [
      'replacement, an immutable property changed: AWS::SQS::Queue QueueName',
      desired('Q', 'AWS::SQS::Queue', { QueueName: 'b' }),
      recorded('AWS::SQS::Queue', { QueueName: 'a' }),
      'replace',
      ['QueueName'],
    ],
    [
      'replacement: AWS::S3::Bucket BucketName',
      desired('B', 'AWS::S3::Bucket', { BucketName: 'b' }),
      recorded('AWS::S3::Bucket', { BucketName: 'a' }),
      'replace',
      ['BucketName'],
    ],
    [
      'replacement: AWS::IAM::Role RoleName',
      desired('R', 'AWS::IAM::Role', { RoleName: 'b', AssumeRolePolicyDocument: {} }),
      recorded('AWS::IAM::Role', { RoleName: 'a', AssumeRolePolicyDocument: {} }),
      'replace',
      ['RoleName'],
    ],
    [
      'replacement: AWS::DynamoDB::Table KeySchema',
      desired('T', 'AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }),
      recorded('AWS::DynamoDB::Table', { KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] }),
      'replace',
      ['KeySchema'],
    ],
    [
      'an added create-only property is a replacement',
      desired('Q', 'AWS::SQS::Queue', { FifoQueue: true }),
      recorded('AWS::SQS::Queue', {}),
      'replace',
      ['FifoQueue'],
    ],
    [
      'a nested create-only path below an in-place property: EC2 BlockDeviceMappings Ebs.KmsKeyId',
      desired('I', 'AWS::EC2::Instance', {
        BlockDeviceMappings: [{ DeviceName: 'a', Ebs: { KmsKeyId: 'k2' } }],
      }),
      recorded('AWS::EC2::Instance', { BlockDeviceMappings: [{ DeviceName: 'a', Ebs: { KmsKeyId: 'k1' } }] }),
      'replace',
      ['BlockDeviceMappings'],
    ],
    [
      "a 'maybe' property is planned in place, with a note: EC2 InstanceType",
      desired('I', 'AWS::EC2::Instance', { InstanceType: 't3.large' }),
      recorded('AWS::EC2::Instance', { InstanceType: 't3.small' }),
      'update',
      ['InstanceType'],
    ],
    [
      'a type without a bundled schema is updated in place',
      desired('C', 'Custom::Thing', { ServiceToken: 'arn', X: 2 }),
      recorded('Custom::Thing', { ServiceToken: 'arn', X: 1 }),
      'update',
      ['X'],
    ],
    [
      'Type change is a replacement',
      desired('P', 'AWS::SSM::Parameter', { Name: 'x' }),
      recorded('AWS::Logs::LogGroup', { Name: 'x' }),
      'replace',
      [],
    ],
    [
      'legacy empty hash: a record without a hash is unchanged on its first update',
      desired('Q', 'AWS::SQS::Queue', { QueueName: 'new-name' }),
      recorded('AWS::SQS::Queue', { QueueName: 'old-name' }, { propertyHash: undefined }),
      'no-op',
      [],
    ],
    [
      'legacy empty hash: an empty string hash counts the same',
      desired('Q', 'AWS::SQS::Queue', { VisibilityTimeout: 60 }),
      recorded('AWS::SQS::Queue', { VisibilityTimeout: 30 }, { propertyHash: '' }),
      'no-op',
      [],
    ],
  ])('%s', (_name, want, had, kind, changed) => {
    const op = planOne(want, had);
    expect(op.kind).toBe(kind);
    expect(op.changedProperties).toEqual(changed);
    expect(op.reason).not.toBe('');
  });

  it('names the property that forced the replacement in the reason', () => {
    const op = planOne(
      desired('Q', 'AWS::SQS::Queue', { QueueName: 'b', VisibilityTimeout: 5 }),
      recorded('AWS::SQS::Queue', { QueueName: 'a', VisibilityTimeout: 1 }),
    );
    expect(op.reason).toBe('changed: QueueName, VisibilityTimeout; QueueName requires replacement (schema)');
    expect(op.replacementCauses).toEqual([{ kind: 'property', property: 'QueueName', source: 'bundled' }]);
  });

  it('says which Type changed, and records the previous type', () => {
    const op = planOne(desired('P', 'AWS::SSM::Parameter'), recorded('AWS::Logs::LogGroup'));
    expect(op.previousType).toBe('AWS::Logs::LogGroup');
    expect(op.replacementCauses).toEqual([
      { kind: 'type-change', from: 'AWS::Logs::LogGroup', to: 'AWS::SSM::Parameter' },
    ]);
    expect(op.reason).toContain('Type changed from AWS::Logs::LogGroup to AWS::SSM::Parameter');
  });

  it('plans a reader of a resource this deploy makes as an update, decided once it exists, not a replacement its placeholder implies', () => {
    const stage = { RestApiId: 'a1b2c3d4e5', StageName: 'prod', DeploymentId: 'old123' };
    const op = planOne(
      desired('Stage', 'AWS::ApiGateway::Stage', { ...UNRESOLVED_PROPERTIES }),
      recorded('AWS::ApiGateway::Stage', stage),
    );
    expect(op.kind).toBe('update');
    expect(op.replacementCauses).toEqual([]);
    expect(op.reason).toBe('reads a resource this deploy makes: decided once it exists');
    // Resolved, a create-only change is still a replacement.
    expect(
      planOne(
        desired('Stage', 'AWS::ApiGateway::Stage', { ...stage, StageName: 'live' }),
        recorded('AWS::ApiGateway::Stage', stage),
      ).kind,
    ).toBe('replace');
  });

  it('replaces when the provider has no update for the change (no Update registered)', () => {
    const seen: [string, readonly string[]][] = [];
    const op = planOne(
      desired('Q', 'AWS::SQS::Queue', { VisibilityTimeout: 60 }),
      recorded('AWS::SQS::Queue', { VisibilityTimeout: 30 }),
      { canHandle: () => true, providerCanUpdate: (type, props) => (seen.push([type, props]), false) },
    );
    expect(seen).toEqual([['AWS::SQS::Queue', ['VisibilityTimeout']]]);
    expect(op.kind).toBe('replace');
    expect(op.reason).toContain('the provider cannot update VisibilityTimeout in place');
  });

  it('a create-only property the route leaves unsent (--prefer-sdk-route) is recorded in place, not a replacement', () => {
    const seen: (readonly string[])[] = [];
    const subnet = { VpcId: 'vpc-1', CidrBlock: '10.0.0.0/24', MapPublicIpOnLaunch: false };
    const op = planOne(
      desired(
        'S',
        'AWS::EC2::Subnet',
        { ...subnet, MapPublicIpOnLaunch: true, AvailabilityZoneId: 'use1-az1' },
        { unsent: ['AvailabilityZoneId'] },
      ),
      recorded('AWS::EC2::Subnet', subnet),
      { canHandle: () => true, providerCanUpdate: (_type, props) => (seen.push(props), true) },
    );
    expect(op.kind).toBe('update');
    expect(op.changedProperties).toEqual(['AvailabilityZoneId', 'MapPublicIpOnLaunch']);
    expect(seen).toEqual([['MapPublicIpOnLaunch']]);
    expect(op.notes).toEqual([
      'AvailabilityZoneId is create-only and left unsent (--prefer-sdk-route): recorded, not applied',
    ]);
    // Without the mark, the same change is a replacement.
    const plain = planOne(
      desired('S', 'AWS::EC2::Subnet', { ...subnet, AvailabilityZoneId: 'use1-az1' }),
      recorded('AWS::EC2::Subnet', subnet),
    );
    expect(plain.kind).toBe('replace');
  });

  it("notes a 'maybe' property, and plans a custom resource's change in place without a note", () => {
    const maybe = planOne(
      desired('I', 'AWS::EC2::Instance', { InstanceType: 'b' }),
      recorded('AWS::EC2::Instance', { InstanceType: 'a' }),
    );
    expect(maybe.notes).toEqual([
      'InstanceType may require replacement depending on the change; planned in place',
    ]);
    const custom = planOne(desired('C', 'Custom::X', { A: 2 }), recorded('Custom::X', { A: 1 }));
    expect(custom.kind).toBe('update');
    expect(custom.notes).toEqual([]);
  });

  it('adding an element without the nested create-only path is in place', () => {
    const op = planOne(
      desired('I', 'AWS::EC2::Instance', { BlockDeviceMappings: [{ DeviceName: 'a' }] }),
      recorded('AWS::EC2::Instance', {}),
    );
    expect(op.kind).toBe('update');
  });

  it('a legacy no-op carries the hash to record, and an unchanged one the same hash', () => {
    const legacy = planOne(
      desired('Q', 'AWS::SQS::Queue', { VisibilityTimeout: 60 }),
      recorded('AWS::SQS::Queue', {}, { propertyHash: undefined }),
    );
    const same = planOne(desired('Q', 'AWS::SQS::Queue', { A: 1 }), recorded('AWS::SQS::Queue', { A: 1 }));
    expect(legacy.propertyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(legacy.reason).toContain('legacy record');
    expect(same.propertyHash).toBe(recorded('AWS::SQS::Queue', { A: 1 }).propertyHash);
  });

  it('compares a NoEcho-masked property only when nothing else explains the changed hash', () => {
    const onlyMasked = planOne(desired('D', 'AWS::RDS::DBInstance', { MasterUserPassword: 'new-secret' }), {
      ...recorded('AWS::RDS::DBInstance', { MasterUserPassword: 'old-secret' }),
      properties: { MasterUserPassword: '***' },
    });
    expect(onlyMasked.changedProperties).toEqual(['MasterUserPassword']);
    const withOther = planOne(
      desired('D', 'AWS::RDS::DBInstance', { MasterUserPassword: 'same', AllocatedStorage: '30' }),
      {
        ...recorded('AWS::RDS::DBInstance', { MasterUserPassword: 'same', AllocatedStorage: '20' }),
        properties: { MasterUserPassword: '***', AllocatedStorage: '20' },
      },
    );
    expect(withOther.changedProperties).toEqual(['AllocatedStorage']);
    expect(withOther.notes).toEqual([
      'MasterUserPassword is masked in state (NoEcho) and could not be compared',
    ]);
  });

  it('carries the policies and the recorded physical id', () => {
    const op = planOne(
      desired(
        'Q',
        'AWS::SQS::Queue',
        { QueueName: 'b' },
        { updateReplacePolicy: 'Retain', deletionPolicy: 'Retain' },
      ),
      recorded('AWS::SQS::Queue', { QueueName: 'a' }),
    );
    expect(op).toMatchObject({
      physicalId: 'Queue-phys',
      updateReplacePolicy: 'Retain',
      deletionPolicy: 'Retain',
    });
  });
});

describe('the plan as a whole', () => {
  it('orders the deploy phase by dependencies and lists each resource once', () => {
    const plan = buildPlan(
      {
        desired: [
          desired('C', 'AWS::SQS::Queue', {}, { dependencies: ['B'] }),
          desired('B', 'AWS::SQS::Queue', {}, { dependencies: ['A'] }),
          desired('A', 'AWS::SQS::Queue'),
        ],
        recorded: {},
      },
      allProviders,
    );
    expect(plan.operations.map((op) => [op.logicalId, op.dependsOn])).toEqual([
      ['A', []],
      ['B', ['A']],
      ['C', ['B']],
    ]);
  });

  it('deletes removed resources in reverse dependency order, in the cleanup phase', () => {
    const plan = buildPlan(
      {
        desired: [desired('Keep', 'AWS::SQS::Queue')],
        recorded: {
          Keep: recorded('AWS::SQS::Queue'),
          Topic: recorded('AWS::SNS::Topic'),
          Sub: recorded('AWS::SNS::Subscription', {}, { dependencies: ['Topic'] }),
          Policy: recorded('AWS::SNS::TopicPolicy', {}, { dependencies: ['Topic', 'Sub'] }),
        },
      },
      allProviders,
    );
    const deletes = plan.operations.filter((op) => op.kind === 'delete');
    expect(deletes.map((op) => [op.logicalId, op.dependsOn, op.phase])).toEqual([
      ['Policy', [], 'cleanup'],
      ['Sub', ['Policy'], 'cleanup'],
      ['Topic', ['Policy', 'Sub'], 'cleanup'],
    ]);
    expect(plan.operations[0]).toMatchObject({ logicalId: 'Keep', kind: 'no-op', phase: 'deploy' });
    expect(deletes[0]?.reason).toBe('removed from the template');
  });

  it('refuses a type no provider can handle before planning anything, naming it', () => {
    const canHandle = (type: string) => type !== 'AWS::Foo::Bar';
    const run = () =>
      buildPlan(
        {
          desired: [desired('A', 'AWS::Foo::Bar'), desired('B', 'AWS::SQS::Queue')],
          recorded: { Gone: recorded('AWS::Foo::Bar') },
        },
        { canHandle, providerCanUpdate: () => true },
      );
    expect(run).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_RESOURCE_TYPE',
        message: expect.stringContaining('AWS::Foo::Bar (A, Gone)'),
      }),
    );
  });

  it("names the stack's own unsupported types and its nested templates' in one refusal", () => {
    const run = () =>
      buildPlan(
        {
          desired: [desired('A', 'Custom::Own'), desired('B', 'AWS::SQS::Queue')],
          recorded: {},
          nested: [
            { logicalId: 'Child/Odd', type: 'Custom::Deep' },
            { logicalId: 'Child/Grand/Other', type: 'Custom::Own' },
          ],
        },
        { canHandle: (type) => !type.startsWith('Custom::'), providerCanUpdate: () => true },
      );
    expect(run).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_RESOURCE_TYPE',
        message: expect.stringContaining('Custom::Deep (Child/Odd); Custom::Own (A, Child/Grand/Other)'),
      }),
    );
  });

  it("refuses when a Type change's old type cannot be handled (its delete needs a provider)", () => {
    const run = () =>
      buildPlan(
        { desired: [desired('A', 'AWS::SQS::Queue')], recorded: { A: recorded('AWS::Old::Type') } },
        { canHandle: (t) => t !== 'AWS::Old::Type', providerCanUpdate: () => true },
      );
    expect(run).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_RESOURCE_TYPE' }));
  });

  it.each([
    [
      'a dependency cycle',
      [
        desired('A', 'AWS::SQS::Queue', {}, { dependencies: ['B'] }),
        desired('B', 'AWS::SQS::Queue', {}, { dependencies: ['A'] }),
      ],
      'DEPENDENCY_CYCLE',
    ],
    [
      'a dependency on a resource not deployed',
      [desired('A', 'AWS::SQS::Queue', {}, { dependencies: ['Nope'] })],
      'UNKNOWN_DEPENDENCY',
    ],
  ])('refuses %s', (_name, resources, code) => {
    expect(() => buildPlan({ desired: resources, recorded: {} }, allProviders)).toThrow(
      expect.objectContaining({ code }),
    );
  });

  it('is a plain value: JSON round-trips unchanged', () => {
    const plan = buildPlan(
      {
        desired: [desired('Q', 'AWS::SQS::Queue', { QueueName: 'b' })],
        recorded: { Q: recorded('AWS::SQS::Queue', { QueueName: 'a' }), Old: recorded('AWS::SNS::Topic') },
      },
      allProviders,
    );
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});

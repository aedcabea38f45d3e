import { describe, expect, it } from 'vitest';
import {
  OWN_REFUSAL_TYPES,
  ownProtectionRefusal,
  protectionNote,
  protectionOffChanges,
  REMOVE_PROTECTION_TABLE,
  safeOnCommandLine,
} from '../../src/resource-types/deletion-protection.js';
import { checkStatefulReplacements } from '../../src/plan/guards/stateful-replace.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { allProviders, desired, recorded } from './helpers.js';

type Bag = Record<string, unknown>;

describe("the stateful guard's deletion-protection note (spec 002)", () => {
  it.each<[string, string, { properties?: Bag; observedProperties?: Bag }, boolean]>([
    [
      'a table whose recorded properties turn protection on',
      'AWS::DynamoDB::Table',
      { properties: { DeletionProtectionEnabled: true } },
      true,
    ],
    [
      'a table whose stored read-back shows protection on',
      'AWS::DynamoDB::Table',
      { properties: {}, observedProperties: { DeletionProtectionEnabled: true } },
      true,
    ],
    [
      "the string 'true' a hand-written L1 produces",
      'AWS::RDS::DBInstance',
      { properties: { DeletionProtection: 'true' } },
      true,
    ],
    [
      'protection off in both bags: no note',
      'AWS::DynamoDB::Table',
      { properties: { DeletionProtectionEnabled: false }, observedProperties: {} },
      false,
    ],
    [
      "a type outside --remove-protection's table: no note",
      'AWS::Kinesis::Stream',
      { properties: { DeletionProtection: true } },
      false,
    ],
    [
      'a Cognito pool with DeletionProtection ACTIVE',
      'AWS::Cognito::UserPool',
      { properties: { DeletionProtection: 'ACTIVE' } },
      true,
    ],
    [
      'an EMR cluster with Instances.TerminationProtected',
      'AWS::EMR::Cluster',
      { properties: { Instances: { TerminationProtected: true } } },
      true,
    ],
  ])('%s', (_name, type, record, noted) => {
    expect(protectionNote('R', type, record) !== undefined).toBe(noted);
  });

  it('names the flag, both outcomes and the public section, and leaves turning it off to the console or API', () => {
    const note = protectionNote('Table', 'AWS::DynamoDB::Table', {
      properties: { DeletionProtectionEnabled: true },
    })!;
    expect(note).toContain('DeletionProtectionEnabled');
    expect(note).toContain('a delete-first deploy fails at its delete');
    expect(note).toContain('a create-first one leaves the old resource in AWS, no longer tracked');
    expect(note).toContain('"Deletion protection"');
    expect(note).toContain('console or with the service API');
  });

  const tablePlan = (updateReplacePolicy?: string) =>
    buildPlan(
      {
        desired: [
          desired(
            'Table',
            'AWS::DynamoDB::Table',
            { TableName: 'b' },
            updateReplacePolicy ? { updateReplacePolicy } : {},
          ),
        ],
        recorded: {
          Table: recorded(
            'AWS::DynamoDB::Table',
            { TableName: 'a' },
            { observedProperties: { DeletionProtectionEnabled: true } },
          ),
        },
      },
      allProviders,
    );

  it('the STATEFUL_REPLACE_BLOCKED refusal carries the note for a protected target', () => {
    const plan = tablePlan();
    expect(() =>
      checkStatefulReplacements({
        operations: plan.operations,
        recorded: {
          Table: recorded(
            'AWS::DynamoDB::Table',
            { TableName: 'a' },
            { observedProperties: { DeletionProtectionEnabled: true } },
          ),
        },
        forceStatefulRecreation: false,
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'STATEFUL_REPLACE_BLOCKED',
        hint: expect.stringContaining('Table has deletion protection on'),
      }),
    );
  });

  it('a target under UpdateReplacePolicy: Retain gets no note (it is not refused at all)', () => {
    const plan = tablePlan('Retain');
    expect(
      checkStatefulReplacements({
        operations: plan.operations,
        recorded: {},
        forceStatefulRecreation: false,
      })[0]?.outcome,
    ).toBe('retained');
  });
});

describe("the six types' own refusals (spec 002)", () => {
  it('are exactly the six types the spec names', () => {
    expect([...OWN_REFUSAL_TYPES].sort()).toEqual(
      [
        'AWS::AutoScaling::AutoScalingGroup',
        'AWS::Cognito::UserPool',
        'AWS::DynamoDB::GlobalTable',
        'AWS::EMR::Cluster',
        'AWS::ElasticLoadBalancingV2::LoadBalancer',
        'AWS::Logs::LogGroup',
      ].sort(),
    );
  });

  it.each<[string, string, string, Bag, Bag | undefined, string | undefined]>([
    [
      'a log group names put-log-group-deletion-protection',
      'AWS::Logs::LogGroup',
      '/app/logs',
      { DeletionProtectionEnabled: true },
      undefined,
      'Turn it off with: aws logs put-log-group-deletion-protection --log-group-identifier /app/logs --no-deletion-protection-enabled, then run cdkd deploy again.',
    ],
    [
      'an ELBv2 load balancer reads deletion_protection.enabled',
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/x/1',
      { LoadBalancerAttributes: [{ Key: 'deletion_protection.enabled', Value: 'true' }] },
      undefined,
      'Turn it off with: aws elbv2 modify-load-balancer-attributes --load-balancer-arn arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/x/1 --attributes Key=deletion_protection.enabled,Value=false, then run cdkd deploy again.',
    ],
    [
      'an EMR cluster names modify-cluster-attributes',
      'AWS::EMR::Cluster',
      'j-ABC',
      { Instances: { TerminationProtected: true } },
      undefined,
      'Turn it off with: aws emr modify-cluster-attributes --cluster-id j-ABC --no-termination-protected, then run cdkd deploy again.',
    ],
    [
      'a global table reads its replicas',
      'AWS::DynamoDB::GlobalTable',
      'orders',
      { Replicas: [{ Region: 'us-east-1', DeletionProtectionEnabled: true }] },
      undefined,
      "Turn it off with: aws dynamodb update-table --table-name orders --no-deletion-protection-enabled (in each replica's region), then run cdkd deploy again.",
    ],
    [
      'Auto Scaling at prevent-all-deletion blocks a replacement',
      'AWS::AutoScaling::AutoScalingGroup',
      'asg',
      { DeletionProtection: 'prevent-all-deletion' },
      undefined,
      'Turn it off with: aws autoscaling update-auto-scaling-group --auto-scaling-group-name asg --deletion-protection none, then run cdkd deploy again.',
    ],
    [
      'Auto Scaling at prevent-force-deletion: nothing to disable (the delete never forces)',
      'AWS::AutoScaling::AutoScalingGroup',
      'asg',
      { DeletionProtection: 'prevent-force-deletion' },
      undefined,
      undefined,
    ],
    [
      'Auto Scaling at none',
      'AWS::AutoScaling::AutoScalingGroup',
      'asg',
      { DeletionProtection: 'none' },
      undefined,
      undefined,
    ],
    [
      'Cognito reads the desired value first: cleared in the template, not refused',
      'AWS::Cognito::UserPool',
      'us-east-1_abc',
      { DeletionProtection: 'ACTIVE' },
      { DeletionProtection: 'INACTIVE' },
      undefined,
    ],
    [
      'Cognito: set in the template, refused though the record has it off',
      'AWS::Cognito::UserPool',
      'us-east-1_abc',
      { DeletionProtection: 'INACTIVE' },
      { DeletionProtection: 'ACTIVE' },
      'Turn it off with: aws cognito-idp update-user-pool --user-pool-id us-east-1_abc --deletion-protection INACTIVE, then run cdkd deploy again.',
    ],
    [
      'Cognito without a template value falls back to the record',
      'AWS::Cognito::UserPool',
      'us-east-1_abc',
      { DeletionProtection: 'ACTIVE' },
      {},
      'Turn it off with: aws cognito-idp update-user-pool --user-pool-id us-east-1_abc --deletion-protection INACTIVE, then run cdkd deploy again.',
    ],
    [
      'the other types read the record, not the template',
      'AWS::Logs::LogGroup',
      'g',
      { DeletionProtectionEnabled: true },
      { DeletionProtectionEnabled: false },
      'Turn it off with: aws logs put-log-group-deletion-protection --log-group-identifier g --no-deletion-protection-enabled, then run cdkd deploy again.',
    ],
    [
      'an id holding whitespace sends the user to the console',
      'AWS::Logs::LogGroup',
      '/app/my logs',
      { DeletionProtectionEnabled: true },
      undefined,
      'Turn it off in the AWS console (its id "/app/my logs" is not safe to print on a command line), then run cdkd deploy again.',
    ],
    [
      'a protected type with protection off is not refused',
      'AWS::Logs::LogGroup',
      'g',
      { DeletionProtectionEnabled: false },
      undefined,
      undefined,
    ],
    [
      'a type outside the six (RDS) has no own refusal',
      'AWS::RDS::DBInstance',
      'db',
      { DeletionProtection: true },
      undefined,
      undefined,
    ],
  ])('%s', (_name, type, physicalId, recordedProps, desiredProps, hint) => {
    const refusal = ownProtectionRefusal({
      logicalId: 'R',
      type,
      physicalId,
      recorded: recordedProps,
      desired: desiredProps,
    });
    if (hint === undefined) return expect(refusal).toBeUndefined();
    expect(refusal).toMatchObject({ code: 'DELETION_PROTECTED', hint });
    expect(refusal?.message).toContain(`R (${type}) ${physicalId} has deletion protection on`);
  });

  it('a replacement under UpdateReplacePolicy: Retain deletes nothing, so it is not refused', () => {
    expect(
      ownProtectionRefusal({
        logicalId: 'R',
        type: 'AWS::Logs::LogGroup',
        physicalId: 'g',
        recorded: { DeletionProtectionEnabled: true },
        updateReplacePolicy: 'Retain',
      }),
    ).toBeUndefined();
  });
});

describe('ids safe to print on a command line (spec 002)', () => {
  it.each<[string, string, boolean]>([
    ['a plain name', 'orders-table', true],
    ['an ARN', 'arn:aws:logs:us-east-1:1:log-group:/a/b', true],
    ['whitespace', 'my table', false],
    ['a quote', "it's", false],
    ['a backtick', 'a`b', false],
    ['a dollar sign a shell expands', 'a$HOME', false],
    ['a leading file:// the AWS CLI reads', 'file://etc/passwd', false],
    ['a leading - the AWS CLI reads as an option', '-table', false],
    ['a character sanitizing would change (non-ASCII)', 'tablé', false],
    ['a control character', 'a\u0007b', false],
  ])('%s', (_name, id, safe) => {
    expect(safeOnCommandLine(id)).toBe(safe);
  });
});

describe("--remove-protection's table", () => {
  it('covers every stateful type in the index whose schema has a deletion-protection flag', () => {
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::RDS::DBCluster',
      'AWS::RDS::DBInstance',
      'AWS::DocDB::DBCluster',
      'AWS::Neptune::DBCluster',
      'AWS::QLDB::Ledger',
      'AWS::Cognito::UserPool',
      'AWS::Logs::LogGroup',
    ])
      expect(REMOVE_PROTECTION_TABLE[type], type).toBeDefined();
  });
});

describe('what cdkd destroy --remove-protection sets first', () => {
  it.each<[string, string, Bag, Record<string, unknown> | undefined]>([
    [
      'a table turns DeletionProtectionEnabled off',
      'AWS::DynamoDB::Table',
      { DeletionProtectionEnabled: true },
      { DeletionProtectionEnabled: false },
    ],
    [
      'an RDS cluster turns DeletionProtection off',
      'AWS::RDS::DBCluster',
      { DeletionProtection: 'true' },
      { DeletionProtection: false },
    ],
    [
      'a Cognito pool goes INACTIVE',
      'AWS::Cognito::UserPool',
      { DeletionProtection: 'ACTIVE' },
      { DeletionProtection: 'INACTIVE' },
    ],
    [
      'an Auto Scaling group at prevent-all-deletion goes to none',
      'AWS::AutoScaling::AutoScalingGroup',
      { DeletionProtection: 'prevent-all-deletion' },
      { DeletionProtection: 'none' },
    ],
    [
      'an Auto Scaling group at prevent-force-deletion has nothing to turn off',
      'AWS::AutoScaling::AutoScalingGroup',
      { DeletionProtection: 'prevent-force-deletion' },
      undefined,
    ],
    [
      'an OpenSearch Serverless collection goes DISABLED',
      'AWS::OpenSearchServerless::Collection',
      { DeletionProtection: 'ENABLED' },
      { DeletionProtection: 'DISABLED' },
    ],
    [
      'a load balancer keeps its other attributes',
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      {
        LoadBalancerAttributes: [
          { Key: 'idle_timeout.timeout_seconds', Value: '60' },
          { Key: 'deletion_protection.enabled', Value: 'true' },
        ],
      },
      {
        LoadBalancerAttributes: [
          { Key: 'idle_timeout.timeout_seconds', Value: '60' },
          { Key: 'deletion_protection.enabled', Value: 'false' },
        ],
      },
    ],
    [
      'an EMR cluster keeps the rest of Instances',
      'AWS::EMR::Cluster',
      { Instances: { TerminationProtected: true, Ec2SubnetId: 's' } },
      { Instances: { TerminationProtected: false, Ec2SubnetId: 's' } },
    ],
    [
      'a global table turns each replica off',
      'AWS::DynamoDB::GlobalTable',
      { Replicas: [{ Region: 'a', DeletionProtectionEnabled: true }, { Region: 'b' }] },
      {
        Replicas: [
          { Region: 'a', DeletionProtectionEnabled: false },
          { Region: 'b', DeletionProtectionEnabled: false },
        ],
      },
    ],
    [
      'protection already off: nothing to set',
      'AWS::DynamoDB::Table',
      { DeletionProtectionEnabled: false },
      undefined,
    ],
    ['a type outside the table: nothing to set', 'AWS::SQS::Queue', { DeletionProtection: true }, undefined],
  ])('%s', (_name, type, properties, changes) => {
    expect(protectionOffChanges(type, properties)).toEqual(changes);
  });
});

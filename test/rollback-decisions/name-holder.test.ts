import { describe, expect, it } from 'vitest';
import { ruleTable } from './rule-table.js';
import {
  nameCollisionMessage,
  newResourceHoldsName,
  retainedHolderMessage,
  type NameHolderInput,
  type NameHolding,
} from '../../src/rollback-decisions/name-holder.js';

type Overrides = Partial<Omit<NameHolderInput, 'newResource'>> & {
  newResource?: Partial<NameHolderInput['newResource']>;
};

/** An SQS queue re-created under its explicit name `jobs`, colliding with the replacement's new queue. */
function input(overrides: Overrides = {}): NameHolderInput {
  const { newResource, ...rest } = overrides;
  return {
    type: 'AWS::SQS::Queue',
    newType: rest.type ?? 'AWS::SQS::Queue',
    name: 'jobs',
    generated: false,
    generatedNameKnown: false,
    ...rest,
    newResource: {
      physicalId: 'https://sqs.eu-west-1.amazonaws.com/1/other',
      properties: {},
      ...newResource,
    },
  };
}

const holds: NameHolding = { holds: true };
const refused = (reason: string): NameHolding => ({ holds: false, reason: expect.stringContaining(reason) });
const ROLE = 'AWS::IAM::Role';
const RULE = 'AWS::Events::Rule';

// Spec 000, "On the create-first order, cdkd deletes the new resource first only when it can
// show that the new resource holds the name the re-create collided on".
describe('newResourceHoldsName', () => {
  ruleTable<{ rule: string; input: NameHolderInput; result: NameHolding }>(
    [
      {
        rule: "An explicit name matches when the new resource's state record has the same name property, spelled exactly alike",
        input: input({ newResource: { properties: { QueueName: 'jobs' } } }),
        result: holds,
      },
      {
        rule: 'spelled exactly alike: a name differing in case is not it where the service does not ignore case',
        input: input({ newResource: { properties: { QueueName: 'Jobs' } } }),
        result: refused('does not hold jobs'),
      },
      {
        rule: '(case is ignored only where the service ignores it, such as IAM and RDS names)',
        input: input({
          type: 'AWS::RDS::DBInstance',
          name: 'OrdersDb',
          newResource: { physicalId: 'other', properties: { DBInstanceIdentifier: 'ordersdb' } },
        }),
        result: holds,
      },
      {
        rule: 'under the same parent (such as the event bus of a rule ...)',
        input: input({
          type: RULE,
          name: 'nightly',
          oldProperties: { EventBusName: 'orders' },
          newResource: {
            physicalId: 'orders|nightly',
            properties: { Name: 'nightly', EventBusName: 'orders' },
          },
        }),
        result: holds,
      },
      {
        rule: 'under the same parent: a rule of that name on another event bus does not hold it',
        input: input({
          type: RULE,
          name: 'nightly',
          oldProperties: { EventBusName: 'orders' },
          newResource: { physicalId: 'nightly', properties: { Name: 'nightly' } },
        }),
        result: refused('does not hold nightly'),
      },
      {
        rule: 'under the same parent (... the database of a Glue table)',
        input: input({
          type: 'AWS::Glue::Table',
          name: 'sales',
          oldProperties: { DatabaseName: 'raw' },
          newResource: {
            physicalId: 'sales',
            properties: { DatabaseName: 'curated', TableInput: { Name: 'sales' } },
          },
        }),
        result: refused('does not hold sales'),
      },
      {
        rule: 'or when its physical id names it',
        input: input({ newResource: { physicalId: 'https://sqs.eu-west-1.amazonaws.com/1/jobs' } }),
        result: holds,
      },
      {
        rule: 'For a Route 53 record, the DNS name and hosted zone must match',
        input: input({
          type: 'AWS::Route53::RecordSet',
          name: 'api.example.com.',
          oldProperties: { HostedZoneId: 'Z1' },
          newResource: {
            physicalId: 'api.example.com',
            properties: { Name: 'API.example.com', HostedZoneId: 'Z1' },
          },
        }),
        result: holds,
      },
      {
        rule: 'For a Route 53 record, ... a record of that name in another hosted zone does not hold it',
        input: input({
          type: 'AWS::Route53::RecordSet',
          name: 'api.example.com.',
          oldProperties: { HostedZoneId: 'Z1' },
          newResource: {
            physicalId: 'api.example.com',
            properties: { Name: 'api.example.com.', HostedZoneId: 'Z2' },
          },
        }),
        result: refused('does not hold api.example.com.'),
      },
      {
        rule: "A name cdkd generates (the template names none) matches only through the new resource's physical id",
        input: input({
          name: 'Stack-Jobs-ABC123',
          generated: true,
          generatedNameKnown: true,
          newResource: { physicalId: 'https://sqs/1/Stack-Jobs-ABC123' },
        }),
        result: holds,
      },
      {
        rule: 'A name cdkd generates matches only through the physical id: a recorded name is not enough',
        input: input({
          name: 'Stack-Jobs-ABC123',
          generated: true,
          generatedNameKnown: true,
          newResource: { properties: { QueueName: 'Stack-Jobs-ABC123' } },
        }),
        result: refused('physical id does not name'),
      },
      {
        rule: 'and only for a type whose generated name cdkd knows exactly',
        input: input({
          name: 'Stack-Jobs-ABC123',
          generated: true,
          generatedNameKnown: false,
          newResource: { physicalId: 'https://sqs/1/Stack-Jobs-ABC123' },
        }),
        result: refused('generates exactly'),
      },
      {
        rule: "IAM roles ... cdkd works out the name this re-create actually sent ... and matches it only against the new resource's physical id",
        input: input({
          type: ROLE,
          name: 'MyStack-app-role',
          newResource: { physicalId: 'mystack-APP-role' },
        }),
        result: holds,
      },
      {
        rule: 'IAM roles ...: A matching recorded name is not enough',
        input: input({
          type: ROLE,
          name: 'MyStack-app-role',
          newResource: { physicalId: 'app-role', properties: { RoleName: 'MyStack-app-role' } },
        }),
        result: refused('physical id does not name'),
      },
      {
        rule: 'a record holding the name before the stack-name prefix, read back with it, names the prefixed name by its physical id',
        input: input({
          type: ROLE,
          name: 'MyStack-app-role',
          newResource: {
            physicalId: 'MyStack-app-role',
            properties: { RoleName: 'app-role' },
            observedProperties: { RoleName: 'MyStack-app-role' },
          },
        }),
        result: holds,
      },
      {
        rule: "ELBv2 load balancers ... matches it only against the new resource's physical id",
        input: input({
          type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
          name: 'MyStack-web',
          newResource: {
            physicalId:
              'arn:aws:elasticloadbalancing:eu-west-1:1:loadbalancer/app/MyStack-web/50dc6c495c0c9188',
            properties: {},
          },
        }),
        result: holds,
      },
      {
        rule: 'a Type change between types that share names (RDS, DocumentDB and Neptune share the namespace)',
        input: input({
          type: 'AWS::RDS::DBCluster',
          newType: 'AWS::DocDB::DBCluster',
          name: 'orders',
          newResource: { physicalId: 'orders' },
        }),
        result: holds,
      },
    ],
    ({ input: given, result }) => {
      expect(newResourceHoldsName(given)).toEqual(result);
    },
  );

  // "The same refusal applies when cdkd cannot tell. That happens when ..."
  ruleTable<{ rule: string; input: NameHolderInput; reason: string }>(
    [
      {
        rule: 'the re-create asked for no name cdkd can derive',
        input: input({ name: undefined }),
        reason: 'no name',
      },
      { rule: 'the name is redacted', input: input({ name: '***' }), reason: 'redacted or empty' },
      { rule: 'the name is empty', input: input({ name: '' }), reason: 'redacted or empty' },
      {
        rule: "the new resource's state record and its last read-back name it differently",
        input: input({
          newResource: {
            physicalId: 'https://sqs/1/jobs',
            properties: { QueueName: 'jobs' },
            observedProperties: { QueueName: 'jobs-renamed' },
          },
        }),
        reason: 'name it differently',
      },
      {
        rule: 'the type has no name property cdkd knows',
        input: input({ type: 'AWS::Example::Widget', newResource: { physicalId: 'jobs' } }),
        reason: 'no name property',
      },
      {
        rule: 'a Type change pairs types cdkd does not know to share names',
        input: input({
          newType: 'AWS::SNS::Topic',
          newResource: { physicalId: 'arn:aws:sns:eu-west-1:1:jobs' },
        }),
        reason: 'to share names',
      },
    ].map((testCase) => ({ ...testCase, rule: `refuses when cdkd cannot tell: ${testCase.rule}` })),
    ({ input: given, reason }) => {
      expect(newResourceHoldsName(given)).toEqual(refused(reason));
    },
  );
});

describe('refusal messages', () => {
  it('spec 001 "When the old name is still taken": names the name and gives the three ways out', () => {
    expect(nameCollisionMessage('Queue', 'jobs').split('\n')).toEqual([
      expect.stringMatching(/jobs.*Nothing was deleted, and the journal is kept/),
      '• Remove or rename whatever holds the name, and run cdkd rollback again.',
      '• If the new resource itself holds the name, delete it by hand and run cdkd rollback again.',
      '• Pass --orphan Queue to leave that resource alone.',
    ]);
  });

  it('spec 000 "One combination cannot be honoured and is refused instead": a retained new resource holds the name', () => {
    const message = retainedHolderMessage('Queue', 'jobs');
    expect(message).toContain('jobs');
    expect(message).toContain('The journal is kept');
    expect(message).toContain(
      'Delete the new resource yourself, or remove UpdateReplacePolicy: Retain, then run cdkd rollback again.',
    );
  });
});

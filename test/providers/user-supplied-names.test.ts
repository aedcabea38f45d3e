import { describe, expect, it } from 'vitest';
import {
  prefixedNameProperty,
  userSuppliedName,
  withUserSuppliedName,
} from '../../src/providers/user-supplied-names.js';
import type { ProviderContext } from '../../src/providers/provider.js';

// Spec 000: IAM roles, users, groups, instance profiles and managed policies, and ELBv2
// load balancers and target groups turn even an explicit name into another before
// sending it, under --prefix-user-supplied-names.
describe('userSuppliedName', () => {
  it.each([
    ['without the prefix, a given name is sent unchanged', 'AWS::IAM::Role', 'svc', 'App', false, 'svc'],
    ['with it, an IAM role gets {stack}-{name}', 'AWS::IAM::Role', 'svc', 'App', true, 'App-svc'],
    ['IAM users too', 'AWS::IAM::User', 'ops', 'App', true, 'App-ops'],
    ['IAM groups too', 'AWS::IAM::Group', 'ops', 'App', true, 'App-ops'],
    ['IAM instance profiles too', 'AWS::IAM::InstanceProfile', 'web', 'App', true, 'App-web'],
    ['IAM managed policies too', 'AWS::IAM::ManagedPolicy', 'read', 'App', true, 'App-read'],
    ['ELBv2 load balancers too', 'AWS::ElasticLoadBalancingV2::LoadBalancer', 'lb', 'App', true, 'App-lb'],
    ['ELBv2 target groups too', 'AWS::ElasticLoadBalancingV2::TargetGroup', 'tg', 'App', true, 'App-tg'],
    ['other types are never prefixed', 'AWS::SQS::Queue', 'jobs', 'App', true, 'jobs'],
    [
      "the stack part is cut to the service's limit, the given name kept whole",
      'AWS::ElasticLoadBalancingV2::TargetGroup',
      'target-group-20',
      'AVeryLongStackNameForThisApp',
      true,
      'AVeryLongStackNa-target-group-20',
    ],
    [
      'a given name that leaves no room for the stack part is sent as it is',
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'x'.repeat(31),
      'App',
      true,
      'x'.repeat(31),
    ],
    [
      'a character the service refuses is sent as -',
      'AWS::ElasticLoadBalancingV2::LoadBalancer',
      'web.lb',
      'App',
      true,
      'App-web-lb',
    ],
    [
      'IAM keeps the characters it accepts',
      'AWS::IAM::Role',
      'svc+ops@x.y_z',
      'App',
      true,
      'App-svc+ops@x.y_z',
    ],
  ])('%s', (_name, type, given, stackName, prefix, expected) => {
    expect(userSuppliedName(type, given, stackName, prefix)).toBe(expected);
    expect(userSuppliedName(type, given, stackName, prefix).length).toBeLessThanOrEqual(
      type.startsWith('AWS::ElasticLoadBalancingV2') ? 32 : 128,
    );
  });
});

describe('withUserSuppliedName', () => {
  const context = (prefix: boolean) =>
    ({ stackName: 'App', prefixUserSuppliedNames: prefix }) as unknown as ProviderContext;

  it.each([
    [
      'rewrites the name property under the prefix',
      'AWS::IAM::Role',
      { RoleName: 'svc', Path: '/' },
      true,
      { RoleName: 'App-svc', Path: '/' },
    ],
    ['leaves it without the prefix', 'AWS::IAM::Role', { RoleName: 'svc' }, false, { RoleName: 'svc' }],
    [
      'leaves a generated (absent) name to the provider',
      'AWS::IAM::Role',
      { Path: '/' },
      true,
      { Path: '/' },
    ],
    [
      'leaves types the setting does not rewrite',
      'AWS::SQS::Queue',
      { QueueName: 'q' },
      true,
      { QueueName: 'q' },
    ],
  ])('%s', (_name, type, properties, prefix, expected) => {
    expect(withUserSuppliedName(type, properties, context(prefix))).toEqual(expected);
  });

  it('names the property of each rewriting type', () => {
    expect(prefixedNameProperty('AWS::IAM::ManagedPolicy')).toBe('ManagedPolicyName');
    expect(prefixedNameProperty('AWS::ElasticLoadBalancingV2::LoadBalancer')).toBe('Name');
    expect(prefixedNameProperty('AWS::SNS::Topic')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { buildPseudoParameters, partitionForRegion, urlSuffixForRegion } from '../../src/template/index.js';

describe('pseudo parameters', () => {
  it.each<[string, string, string]>([
    ['us-east-1', 'aws', 'amazonaws.com'],
    ['eu-central-2', 'aws', 'amazonaws.com'],
    ['cn-north-1', 'aws-cn', 'amazonaws.com.cn'],
    ['cn-northwest-1', 'aws-cn', 'amazonaws.com.cn'],
    ['us-gov-west-1', 'aws-us-gov', 'amazonaws.com'],
    ['us-iso-east-1', 'aws-iso', 'c2s.ic.gov'],
    ['us-isob-east-1', 'aws-iso-b', 'sc2s.sgov.gov'],
    ['eu-isoe-west-1', 'aws-iso-e', 'cloud.adc-e.uk'],
    ['us-isof-south-1', 'aws-iso-f', 'csp.hci.ic.gov'],
    ['eusc-de-east-1', 'aws-eusc', 'amazonaws.eu'],
  ])('%s → partition %s, URL suffix %s', (region, partition, suffix) => {
    expect(partitionForRegion(region)).toBe(partition);
    expect(urlSuffixForRegion(region)).toBe(suffix);
    const table = buildPseudoParameters({ accountId: '1', region, stackName: 's' });
    expect(table.get('AWS::Partition')).toBe(partition);
    expect(table.get('AWS::URLSuffix')).toBe(suffix);
  });

  it('fills every pseudo parameter, with a synthetic stack id by default', () => {
    const table = buildPseudoParameters({
      accountId: '123456789012',
      region: 'cn-north-1',
      stackName: 'App',
    });
    expect(Object.fromEntries(table)).toEqual({
      'AWS::AccountId': '123456789012',
      'AWS::Region': 'cn-north-1',
      'AWS::Partition': 'aws-cn',
      'AWS::URLSuffix': 'amazonaws.com.cn',
      'AWS::StackName': 'App',
      'AWS::StackId': 'arn:aws-cn:cloudformation:cn-north-1:123456789012:stack/App/cdkd',
      'AWS::NotificationARNs': [],
    });
  });

  it('takes explicit values over derived ones', () => {
    const table = buildPseudoParameters({
      accountId: '1',
      region: 'us-east-1',
      stackName: 's',
      stackId: 'arn:custom',
      partition: 'aws-test',
      urlSuffix: 'example.com',
      notificationArns: ['arn:aws:sns:us-east-1:1:t'],
    });
    expect(table.get('AWS::StackId')).toBe('arn:custom');
    expect(table.get('AWS::Partition')).toBe('aws-test');
    expect(table.get('AWS::URLSuffix')).toBe('example.com');
    expect(table.get('AWS::NotificationARNs')).toEqual(['arn:aws:sns:us-east-1:1:t']);
  });
});

import { describe, expect, it } from 'vitest';
import { ruleTable } from '../rollback-decisions/rule-table.js';
import {
  comparesIdsIgnoringCase,
  needsNoCreationIdentity,
  sameId,
} from '../../src/resource-types/identifiers.js';

describe('comparesIdsIgnoringCase', () => {
  // "These are RDS, DocumentDB and Neptune DB clusters, DB instances and subnet groups,
  // ElastiCache cache clusters and subnet groups, IAM roles, users, groups, instance profiles
  // and managed policies, and a Glue table (ASCII letters only)."
  it.each([
    'AWS::RDS::DBCluster',
    'AWS::RDS::DBInstance',
    'AWS::RDS::DBSubnetGroup',
    'AWS::DocDB::DBCluster',
    'AWS::DocDB::DBInstance',
    'AWS::DocDB::DBSubnetGroup',
    'AWS::Neptune::DBCluster',
    'AWS::Neptune::DBInstance',
    'AWS::Neptune::DBSubnetGroup',
    'AWS::ElastiCache::CacheCluster',
    'AWS::ElastiCache::SubnetGroup',
    'AWS::IAM::Role',
    'AWS::IAM::User',
    'AWS::IAM::Group',
    'AWS::IAM::InstanceProfile',
    'AWS::IAM::ManagedPolicy',
    'AWS::Glue::Table',
  ])('"a type whose identifiers AWS matches regardless of case": %s', (type) => {
    expect(comparesIdsIgnoringCase(type)).toBe(true);
  });

  it.each(['AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::DynamoDB::Table', 'AWS::Kinesis::Stream'])(
    '"Every other type compares the id exactly": %s',
    (type) => {
      expect(comparesIdsIgnoringCase(type)).toBe(false);
    },
  );
});

describe('sameId', () => {
  ruleTable(
    [
      {
        rule: 'a record holding mycluster ... holds the cluster the journal names MyCluster',
        type: 'AWS::RDS::DBCluster',
        a: 'mycluster',
        b: 'MyCluster',
        same: true,
      },
      {
        rule: 'IAM roles compare regardless of case',
        type: 'AWS::IAM::Role',
        a: 'AppRole',
        b: 'approle',
        same: true,
      },
      {
        rule: 'a Glue table (ASCII letters only): ASCII folds',
        type: 'AWS::Glue::Table',
        a: 'Sales',
        b: 'sales',
        same: true,
      },
      {
        rule: 'a Glue table (ASCII letters only): other letters do not',
        type: 'AWS::Glue::Table',
        a: 'Été',
        b: 'été',
        same: false,
      },
      {
        rule: 'Every other type compares the id exactly',
        type: 'AWS::S3::Bucket',
        a: 'Logs',
        b: 'logs',
        same: false,
      },
      {
        rule: 'an equal id is the same id for any type',
        type: 'AWS::S3::Bucket',
        a: 'logs',
        b: 'logs',
        same: true,
      },
    ],
    ({ type, a, b, same }) => {
      expect(sameId(type, a, b)).toBe(same);
    },
  );
});

describe('needsNoCreationIdentity', () => {
  const generated =
    '"Types whose physical id AWS generates and never reuses ... need no recorded identity": ';
  ruleTable(
    [
      { rule: 'an EC2 vpc- id', type: 'AWS::EC2::VPC' },
      { rule: 'an EC2 nat- id', type: 'AWS::EC2::NatGateway' },
      { rule: 'an EC2 sg- id', type: 'AWS::EC2::SecurityGroup' },
      { rule: 'an EFS file system', type: 'AWS::EFS::FileSystem' },
      { rule: 'an FSx file system', type: 'AWS::FSx::FileSystem' },
      { rule: 'a KMS key', type: 'AWS::KMS::Key' },
      { rule: 'an ELBv2 ARN', type: 'AWS::ElasticLoadBalancingV2::LoadBalancer' },
      {
        rule: 'an AWS::SQS::QueuePolicy, whose delete compares the policy it finds',
        type: 'AWS::SQS::QueuePolicy',
      },
      {
        rule: 'an AWS::SNS::TopicPolicy, whose delete compares the policy it finds',
        type: 'AWS::SNS::TopicPolicy',
      },
      { rule: 'a nested stack, whose id only cdkd mints', type: 'AWS::CloudFormation::Stack' },
    ].map((testCase) => ({ ...testCase, rule: generated + testCase.rule })),
    ({ type }) => {
      expect(needsNoCreationIdentity(type)).toBe(true);
    },
  );

  it.each(['AWS::Kinesis::Stream', 'AWS::S3::Bucket', 'AWS::DynamoDB::Table', 'AWS::RDS::DBCluster'])(
    '"a type whose physical id is a name (most types) must also prove" its identity: %s',
    (type) => {
      expect(needsNoCreationIdentity(type)).toBe(false);
    },
  );
});

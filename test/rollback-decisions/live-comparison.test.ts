import { describe, expect, it } from 'vitest';
import { ruleTable } from './rule-table.js';
import type { LiveResource } from '../../src/providers/provider.js';
import {
  compareLive,
  comparesLiveIdentity,
  type LiveComparison,
  type LiveRead,
} from '../../src/rollback-decisions/live-comparison.js';

describe('comparesLiveIdentity', () => {
  it.each([
    'AWS::Kinesis::Stream',
    'AWS::EC2::NatGateway',
    'AWS::EC2::EIP',
    'AWS::RDS::DBCluster',
    'AWS::RDS::DBInstance',
    'AWS::DocDB::DBCluster',
    'AWS::DocDB::DBInstance',
    'AWS::Neptune::DBCluster',
    'AWS::Neptune::DBInstance',
    'AWS::S3::Bucket',
    'AWS::DynamoDB::Table',
  ])('a fix-forward that puts a new resource under the logical id is compared live: %s', (type) => {
    expect(comparesLiveIdentity(type, 'sdk')).toBe(true);
  });

  it('"Every other type ... lands in the warning above"', () => {
    expect(comparesLiveIdentity('AWS::SQS::Queue')).toBe(false);
  });

  it.each([
    'AWS::RDS::DBCluster',
    'AWS::RDS::DBInstance',
    'AWS::Neptune::DBCluster',
    'AWS::Neptune::DBInstance',
    'AWS::DynamoDB::Table',
  ])(
    '"An RDS or Neptune cluster or instance, or a DynamoDB table, that Cloud Control provisioned is never compared": %s',
    (type) => {
      expect(comparesLiveIdentity(type, 'cc-api')).toBe(false);
    },
  );
});

const live = (
  attributes: Record<string, unknown> = {},
  creationIdentity?: LiveResource['creationIdentity'],
): LiveResource => ({
  properties: {},
  attributes,
  ...(creationIdentity ? { creationIdentity } : {}),
});

describe('compareLive: a fix-forward\'s record read against the earlier resource (spec 000, "A later successful cdkd deploy")', () => {
  ruleTable<{ rule: string; type: string; earlier: LiveRead; record: LiveRead; verdict: LiveComparison }>(
    [
      {
        rule: 'Kinesis: both streams read, two names are two streams: proven a different stream',
        type: 'AWS::Kinesis::Stream',
        earlier: live(),
        record: live(),
        verdict: 'different',
      },
      {
        rule: "Kinesis: never deleted when the record's stream is not found",
        type: 'AWS::Kinesis::Stream',
        earlier: live(),
        record: 'gone',
        verdict: 'unproven',
      },
      {
        rule: 'Kinesis: never deleted when a read fails',
        type: 'AWS::Kinesis::Stream',
        earlier: 'unreadable',
        record: live(),
        verdict: 'unproven',
      },
      {
        rule: 'Kinesis: an earlier stream already gone is named at info and nothing is deleted',
        type: 'AWS::Kinesis::Stream',
        earlier: 'gone',
        record: live(),
        verdict: 'earlier-gone',
      },
      {
        rule: 'NAT gateway: compared the same way, by its nat- id',
        type: 'AWS::EC2::NatGateway',
        earlier: live(),
        record: live(),
        verdict: 'different',
      },
      {
        rule: 'EIP: an earlier one already gone (the delete is still sent, see decideMadeResource)',
        type: 'AWS::EC2::EIP',
        earlier: 'gone',
        record: live(),
        verdict: 'earlier-gone',
      },
      {
        rule: "S3 bucket: two names are two buckets once the record's bucket reads back in the stack's region",
        type: 'AWS::S3::Bucket',
        earlier: live(),
        record: live(),
        verdict: 'different',
      },
      {
        rule: "S3 bucket: the record's bucket does not read back: unproven",
        type: 'AWS::S3::Bucket',
        earlier: live(),
        record: 'unreadable',
        verdict: 'unproven',
      },
      {
        rule: 'DynamoDB: compared by its TableId, which AWS never gives a later table: different ids',
        type: 'AWS::DynamoDB::Table',
        earlier: live({}, { TableId: 't-1' }),
        record: live({}, { TableId: 't-2' }),
        verdict: 'different',
      },
      {
        rule: 'DynamoDB: the same TableId: a read proving it the same resource tracks it',
        type: 'AWS::DynamoDB::Table',
        earlier: live({}, { TableId: 't-1' }),
        record: live({}, { TableId: 't-1' }),
        verdict: 'same',
      },
      {
        rule: 'RDS cluster: compared by its resource id (DbClusterResourceId): renamed, still the same cluster',
        type: 'AWS::RDS::DBCluster',
        earlier: live({ DBClusterResourceId: 'cluster-ABC' }),
        record: live({ DBClusterResourceId: 'cluster-ABC' }),
        verdict: 'same',
      },
      {
        rule: 'RDS instance: compared by DbiResourceId: different ids',
        type: 'AWS::RDS::DBInstance',
        earlier: live({ DbiResourceId: 'db-1' }),
        record: live({ DbiResourceId: 'db-2' }),
        verdict: 'different',
      },
      {
        rule: 'Neptune cluster: no resource id in a read proves nothing either way',
        type: 'AWS::Neptune::DBCluster',
        earlier: live(),
        record: live({ ClusterResourceId: 'cluster-1' }),
        verdict: 'unproven',
      },
      {
        rule: 'DocumentDB cluster: compared the same way, by its resource id, when both reads show engine docdb',
        type: 'AWS::DocDB::DBCluster',
        earlier: live({ ClusterResourceId: 'cluster-1', Engine: 'docdb' }),
        record: live({ ClusterResourceId: 'cluster-2', Engine: 'docdb' }),
        verdict: 'different',
      },
      {
        rule: 'DocumentDB cluster: an identifier now held by an RDS resource is never read as the DocumentDB one',
        type: 'AWS::DocDB::DBCluster',
        earlier: live({ ClusterResourceId: 'cluster-1', Engine: 'aurora-mysql' }),
        record: live({ ClusterResourceId: 'cluster-2', Engine: 'docdb' }),
        verdict: 'unproven',
      },
      {
        rule: 'DocumentDB instance: an identifier now held by a Neptune resource is never read as the DocumentDB one',
        type: 'AWS::DocDB::DBInstance',
        earlier: live({ DbiResourceId: 'db-1', Engine: 'neptune' }),
        record: live({ DbiResourceId: 'db-2', Engine: 'docdb' }),
        verdict: 'unproven',
      },
      {
        rule: 'DocumentDB cluster: a read that shows no engine (a Cloud Control model has none) proves nothing',
        type: 'AWS::DocDB::DBCluster',
        earlier: live({ ClusterResourceId: 'cluster-1' }),
        record: live({ ClusterResourceId: 'cluster-2' }),
        verdict: 'unproven',
      },
      {
        rule: 'Neptune cluster: an identifier now held by a DocumentDB resource is never read as the Neptune one',
        type: 'AWS::Neptune::DBCluster',
        earlier: live({ ClusterResourceId: 'cluster-1', Engine: 'docdb' }),
        record: live({ ClusterResourceId: 'cluster-2', Engine: 'neptune' }),
        verdict: 'unproven',
      },
      {
        rule: 'Neptune instance: compared by DbiResourceId when both reads show engine neptune',
        type: 'AWS::Neptune::DBInstance',
        earlier: live({ DbiResourceId: 'db-1', Engine: 'neptune' }),
        record: live({ DbiResourceId: 'db-1', Engine: 'neptune' }),
        verdict: 'same',
      },
      {
        rule: 'Every other type lands in the warning',
        type: 'AWS::SQS::Queue',
        earlier: live(),
        record: live(),
        verdict: 'unproven',
      },
    ],
    ({ type, earlier, record, verdict }) => expect(compareLive(type, earlier, record)).toBe(verdict),
  );
});

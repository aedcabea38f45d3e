import { describe, expect, it } from 'vitest';
import { ruleTable } from './rule-table.js';
import {
  decideMadeResource,
  type MadeDecision,
  type MadeResourceFacts,
} from '../../src/rollback-decisions/made-resource.js';

type Overrides = Partial<Omit<MadeResourceFacts, 'entry'>> & { entry?: Partial<MadeResourceFacts['entry']> };

/** A Kinesis stream a failed CREATE made (its retention follow-up rejected), seen by `cdkd rollback`. */
function facts(overrides: Overrides = {}): MadeResourceFacts {
  const { entry, ...rest } = overrides;
  return {
    path: 'rollback',
    records: {},
    ...rest,
    entry: {
      logicalId: 'Stream',
      type: 'AWS::Kinesis::Stream',
      physicalId: 'orders',
      hasCreationIdentity: true,
      provisionedBy: 'sdk',
      ...entry,
    },
  };
}

const deleted = (needsIdentityProof = false, retain = false): MadeDecision => ({
  kind: 'delete',
  retain,
  needsIdentityProof,
});
const warnsNaming = (id: string): MadeDecision => ({ kind: 'warn', reason: expect.stringContaining(id) });
const tracked: MadeDecision = { kind: 'tracked' };
const stream = (physicalId: string) => ({ type: 'AWS::Kinesis::Stream', physicalId });

describe('decideMadeResource: the paths (spec 000, "Failed CREATEs that made their resource")', () => {
  ruleTable<{ rule: string; facts: MadeResourceFacts; decision: MadeDecision }>(
    [
      {
        rule: 'Automatic rollback: Deleted before the completed operations are reverted, per its DeletionPolicy',
        facts: facts({ path: 'automatic-rollback' }),
        decision: deleted(),
      },
      {
        rule: '`--no-rollback` failure: Nothing is deleted; the journal keeps the entry for a later `cdkd rollback`',
        facts: facts({ path: 'no-rollback' }),
        decision: { kind: 'keep-entry', reason: expect.stringContaining('orders'), warn: false },
      },
      {
        rule: '`cdkd rollback`, with or without `--revert-failed`: Deleted, per its `DeletionPolicy`',
        facts: facts({ path: 'rollback' }),
        decision: deleted(),
      },
      {
        rule: '`cdkd destroy`: Deleted first, per its `DeletionPolicy`, before the journal is removed with the state',
        facts: facts({ path: 'destroy' }),
        decision: deleted(),
      },
      {
        rule: 'A later successful `cdkd deploy`: Deleted, per its `DeletionPolicy` ... when no state record sits under its logical id; a type whose physical id is a name must also prove the resource now answering to that name is the one the failed CREATE made',
        facts: facts({ path: 'deploy-success' }),
        decision: deleted(true),
      },
      {
        rule: 'Under `Retain` it is left in AWS with no rollback-orphan record',
        facts: facts({ entry: { deletionPolicy: 'Retain' } }),
        decision: deleted(false, true),
      },
      {
        rule: 'Snapshot: cdkd takes no final snapshots, so it keeps the resource rather than delete it without one',
        facts: facts({ entry: { deletionPolicy: 'Snapshot' } }),
        decision: deleted(false, true),
      },
      {
        rule: "CloudFormation's RetainExceptOnCreate deletes a resource whose create is rolled back",
        facts: facts({ entry: { deletionPolicy: 'RetainExceptOnCreate' } }),
        decision: deleted(),
      },
    ],
    ({ facts: input, decision }) => {
      expect(decideMadeResource(input)).toEqual(decision);
    },
  );
});

describe('decideMadeResource: "Deleted only while nothing later can own it"', () => {
  ruleTable<{ rule: string; facts: MadeResourceFacts; decision: MadeDecision }>(
    [
      {
        rule: 'skipped with a warning naming the physical id when a NEWER journal segment holds an operation of its type naming its physical id or previous physical id, or a completed CREATE of its type',
        facts: facts({ newerSegmentNamesIt: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: "when a later segment's removal superseded its logical id",
        facts: facts({ supersededByLaterRemoval: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'or when a rollback-orphan record holds its logical or physical id',
        facts: facts({ orphanRecordHoldsIt: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'Retain ... and the same ownership checks skip it with a warning',
        facts: facts({ entry: { deletionPolicy: 'Retain' }, newerSegmentNamesIt: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'a state resource under its logical id with the same physical id ... tracks it and the skip is silent',
        facts: facts({ records: { Stream: stream('orders') } }),
        decision: tracked,
      },
      {
        rule: 'or one of its type holding that physical id under another logical id, tracks it and the skip is silent',
        facts: facts({ records: { Other: stream('orders') } }),
        decision: tracked,
      },
      {
        rule: 'a different physical id under its logical id warns (exit `2`)',
        facts: facts({ records: { Stream: stream('orders-v2') } }),
        decision: {
          kind: 'warn',
          reason:
            'recorded orders, which is not the resource state tracks under this id; not reverted, needs manual attention',
        },
      },
      {
        rule: 'unless that record is the resource a replacement was replacing: while that record still names the same resource, it does not count as an owner of the new one',
        facts: facts({ records: { Stream: stream('orders-old') }, replacedPhysicalId: 'orders-old' }),
        decision: deleted(),
      },
      {
        rule: 'A record naming anything else still skips the new resource with a warning',
        facts: facts({ records: { Stream: stream('orders-other') }, replacedPhysicalId: 'orders-old' }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'a record holding mycluster ... holds the cluster the journal names MyCluster, and the resource is kept',
        facts: facts({
          entry: { type: 'AWS::RDS::DBCluster', physicalId: 'MyCluster', logicalId: 'Cluster' },
          records: { Imported: { type: 'AWS::RDS::DBCluster', physicalId: 'mycluster' } },
        }),
        decision: tracked,
      },
      {
        rule: 'Every other type compares the id exactly',
        facts: facts({
          entry: { type: 'AWS::SQS::Queue', physicalId: 'https://sqs/Jobs', logicalId: 'Queue' },
          records: { Other: { type: 'AWS::SQS::Queue', physicalId: 'https://sqs/jobs' } },
        }),
        decision: deleted(),
      },
    ],
    ({ facts: input, decision }) => {
      expect(decideMadeResource(input)).toEqual(decision);
    },
  );
});

describe('decideMadeResource: an operation cdkd cannot address', () => {
  it.each([
    { shape: 'absent', physicalId: undefined },
    { shape: 'empty', physicalId: '' },
    { shape: 'whitespace-only', physicalId: '   ' },
    { shape: 'not a string', physicalId: 7 },
  ])(
    '"A failed CREATE that no state record holds is named for manual attention instead": physicalId $shape',
    ({ physicalId }) => {
      const decision = decideMadeResource(facts({ entry: { physicalId } }));
      expect(decision).toEqual({
        kind: 'skip-unaddressable',
        reason: expect.stringContaining('find it by hand'),
      });
    },
  );
});

describe('decideMadeResource: a later successful deploy (spec 000)', () => {
  const deploy = (overrides: Overrides) => facts({ path: 'deploy-success', ...overrides });
  ruleTable<{ rule: string; facts: MadeResourceFacts; decision: MadeDecision }>(
    [
      {
        rule: 'only when ... the deploy completed no operation under it: otherwise the deploy warns, naming its physical id',
        facts: deploy({ deployCompletedOpUnderLogicalId: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'and no resource or rollback-orphan record of any other stack under the same state prefix does',
        facts: deploy({ otherStackHoldsIt: true }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'A record of the stack holding that very resource tracks it, and the entry is dropped silently',
        facts: deploy({ records: { Stream: stream('orders') }, deployCompletedOpUnderLogicalId: true }),
        decision: tracked,
      },
      {
        rule: 'for an `AWS::Kinesis::Stream`, the deploy reads both streams live and deletes the earlier one when it is proven a different stream',
        facts: deploy({
          records: { Stream: stream('orders-v2') },
          deployCompletedOpUnderLogicalId: true,
          liveComparison: 'different',
        }),
        decision: deleted(true),
      },
      {
        rule: 'and a read proving it the same resource tracks it, silently',
        facts: deploy({ records: { Stream: stream('orders-v2') }, liveComparison: 'same' }),
        decision: tracked,
      },
      {
        rule: "never when the record's stream is not found, or when a read fails",
        facts: deploy({ records: { Stream: stream('orders-v2') }, liveComparison: 'unproven' }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'an earlier stream already gone is named at info and nothing is deleted',
        facts: deploy({ records: { Stream: stream('orders-v2') }, liveComparison: 'earlier-gone' }),
        decision: { kind: 'tracked', info: expect.stringContaining('orders') },
      },
      {
        rule: 'An `AWS::EC2::NatGateway` ... an earlier one already gone ... is still sent the delete',
        facts: deploy({
          entry: {
            type: 'AWS::EC2::NatGateway',
            physicalId: 'nat-0a1',
            logicalId: 'Nat',
            hasCreationIdentity: false,
          },
          records: { Nat: { type: 'AWS::EC2::NatGateway', physicalId: 'nat-0b2' } },
          liveComparison: 'earlier-gone',
        }),
        decision: deleted(false),
      },
      {
        rule: 'Every other type, and any read that cannot prove either way, lands in the warning above',
        facts: deploy({
          entry: { type: 'AWS::SQS::Queue', physicalId: 'https://sqs/jobs', logicalId: 'Queue' },
          records: { Queue: { type: 'AWS::SQS::Queue', physicalId: 'https://sqs/jobs-2' } },
          liveComparison: 'different',
        }),
        decision: warnsNaming('https://sqs/jobs'),
      },
      {
        rule: 'An RDS or Neptune cluster or instance, or a DynamoDB table, that Cloud Control provisioned is never compared, and lands there too',
        facts: deploy({
          entry: {
            type: 'AWS::DynamoDB::Table',
            physicalId: 'orders',
            logicalId: 'Table',
            provisionedBy: 'cc-api',
          },
          records: { Table: { type: 'AWS::DynamoDB::Table', physicalId: 'orders-2' } },
          liveComparison: 'different',
        }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'With no recorded identity (a provider without one, a read that failed, or a journal an older cdkd wrote) ... it lands in the warning above',
        facts: deploy({ entry: { hasCreationIdentity: false } }),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'Types whose physical id AWS generates and never reuses (an EC2 `vpc-` ... id) ... need no recorded identity',
        facts: deploy({
          entry: { type: 'AWS::EC2::VPC', physicalId: 'vpc-0abc', hasCreationIdentity: false },
        }),
        decision: deleted(false),
      },
    ],
    ({ facts: input, decision }) => {
      expect(decideMadeResource(input)).toEqual(decision);
    },
  );
});

describe('decideMadeResource: an entry a successful fix-forward deploy kept (spec 000, --revert-failed table)', () => {
  const kept = (liveComparison: MadeResourceFacts['liveComparison']) =>
    facts({ keptByFixForward: true, records: { Stream: stream('orders-v2') }, liveComparison });
  ruleTable<{ rule: string; facts: MadeResourceFacts; decision: MadeDecision }>(
    [
      {
        rule: 'proven, the entry is deleted while its creation identity still matches',
        facts: kept('different'),
        decision: deleted(true),
      },
      {
        rule: 'unproven, it is warned about as above',
        facts: kept('unproven'),
        decision: warnsNaming('orders'),
      },
      {
        rule: 'an entry no fix-forward kept is not compared: a different physical id under its logical id warns',
        facts: facts({ records: { Stream: stream('orders-v2') }, liveComparison: 'different' }),
        decision: warnsNaming('orders'),
      },
    ],
    ({ facts: input, decision }) => {
      expect(decideMadeResource(input)).toEqual(decision);
    },
  );
});

import { describe, expect } from 'vitest';
import { ruleTable } from './rule-table.js';
import type { CreationIdentity } from '../../src/providers/provider.js';
import { proveIdentity, type IdentityProof } from '../../src/rollback-decisions/creation-identity.js';

const stream: CreationIdentity = {
  arn: 'arn:aws:kinesis:eu-west-1:111122223333:stream/orders',
  createdAt: '2024-05-01T10:00:00Z',
};

// Spec 000, "A later successful cdkd deploy": "the deploy deletes it only when a live read
// returns the same identity".
describe('proveIdentity', () => {
  ruleTable<{
    rule: string;
    recorded: CreationIdentity | undefined;
    live: CreationIdentity | undefined | 'gone' | 'unreadable';
    type: string;
    proof: IdentityProof;
  }>(
    [
      {
        rule: 'a live read returns the same identity',
        recorded: stream,
        live: { ...stream, shards: 2 },
        type: 'AWS::Kinesis::Stream',
        proof: 'same',
      },
      {
        rule: 'one a live read reports gone is named at info',
        recorded: stream,
        live: 'gone',
        type: 'AWS::Kinesis::Stream',
        proof: 'gone',
      },
      {
        rule: 'or a different one, it lands in the warning above',
        recorded: stream,
        live: { ...stream, createdAt: '2024-06-01T00:00:00Z' },
        type: 'AWS::Kinesis::Stream',
        proof: 'different',
      },
      {
        rule: 'With no recorded identity (a provider without one, ... or a journal an older cdkd wrote)',
        recorded: undefined,
        live: stream,
        type: 'AWS::Kinesis::Stream',
        proof: 'unproven',
      },
      {
        rule: 'With no recorded identity (... a read that failed)',
        recorded: stream,
        live: 'unreadable',
        type: 'AWS::Kinesis::Stream',
        proof: 'unproven',
      },
      {
        rule: 'any read that cannot prove either way: the live read returns no identity',
        recorded: stream,
        live: undefined,
        type: 'AWS::Kinesis::Stream',
        proof: 'unproven',
      },
      {
        rule: 'any read that cannot prove either way: a recorded key the read lacks',
        recorded: stream,
        live: { arn: stream.arn! },
        type: 'AWS::Kinesis::Stream',
        proof: 'unproven',
      },
      {
        rule: 'outside us-east-1 S3 moves that date on a later versioning ... change, which leaves the bucket in the warning above',
        recorded: { name: 'logs', region: 'eu-west-1', creationDate: '2024-05-01T10:00:00Z' },
        live: { name: 'logs', region: 'eu-west-1', creationDate: '2024-05-03T08:00:00Z' },
        type: 'AWS::S3::Bucket',
        proof: 'different',
      },
      {
        rule: 'Types whose physical id AWS generates and never reuses ... need no recorded identity',
        recorded: undefined,
        live: undefined,
        type: 'AWS::EC2::VPC',
        proof: 'same',
      },
      {
        rule: 'a generated-id type a live read reports gone is still gone',
        recorded: undefined,
        live: 'gone',
        type: 'AWS::EC2::VPC',
        proof: 'gone',
      },
    ],
    ({ recorded, live, type, proof }) => {
      expect(proveIdentity(recorded, live, type)).toBe(proof);
    },
  );
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CANDIDATES_DOC,
  candidatesDoc,
  disposition,
  proposeCandidates,
  WRITE_OFFS,
} from '../../scripts/audit-stateful-candidates.js';
import { isKnownType, statefulnessOf } from '../../src/resource-types/schemas.js';
import {
  CONSENT_CONSUMING_DELETES,
  SNAPSHOT_TYPES,
  STATEFUL_TYPE_TABLE,
} from '../../src/resource-types/statefulness.js';

// Spec 002 "How the stateful list is kept complete": three mechanical lower bounds.
describe('the stateful list is kept complete by its three bounds', () => {
  it.each(SNAPSHOT_TYPES)('every type cdkd would snapshot on destroy is on it: %s', (type) => {
    expect(statefulnessOf(type)).toBe('stateful');
  });

  it.each(CONSENT_CONSUMING_DELETES)(
    'every type whose delete consumes --force-stateful-recreation is on it: %s',
    (type) => {
      expect(statefulnessOf(type)).toBe('stateful');
    },
  );

  const candidates = proposeCandidates();

  it('the tier-2 sweep proposes store-like types with an immutable property', () => {
    const proposed = new Set(candidates.map((c) => c.type));
    for (const type of [
      'AWS::S3::Bucket',
      'AWS::Kinesis::Stream',
      'AWS::Backup::BackupVault',
      'AWS::ECR::Repository',
    ])
      expect(proposed.has(type), type).toBe(true);
    // No immutable property: a plain deploy never replaces it, so the sweep does not propose it.
    expect(proposed.has('AWS::SNS::Topic')).toBe(false);
    expect(candidates.every((c) => c.immutable.length > 0)).toBe(true);
  });

  it('every proposal is on the list or written off with a reason', () => {
    const undecided = candidates.filter(({ type }) => {
      const answer = disposition(type);
      return !answer.guarded && !answer.reason;
    });
    expect(undecided.map((c) => c.type)).toEqual([]);
  });

  it('every write-off is a live proposal the list does not also guard', () => {
    const proposed = new Set(candidates.map((c) => c.type));
    for (const [type, reason] of Object.entries(WRITE_OFFS)) {
      expect(proposed.has(type), `${type} is no longer proposed: drop its write-off`).toBe(true);
      expect(statefulnessOf(type), `${type} is both guarded and written off`).toBe('not-stateful');
      expect(reason.length).toBeGreaterThan(0);
    }
  });

  it.each(['AWS::SQS::Queue', 'AWS::EC2::Instance'])(
    '%s stays deliberately unguarded, whatever the schemas claim',
    (type) => {
      expect(statefulnessOf(type)).toBe('not-stateful');
      expect(disposition(type)).toEqual({ guarded: false, reason: expect.any(String) });
    },
  );

  it('every type on the table is one the bundled schemas know', () => {
    expect(STATEFUL_TYPE_TABLE.map(([type]) => type).filter((type) => !isKnownType(type))).toEqual([]);
  });

  it('docs/_generated/stateful-candidates.md is current (npx tsx scripts/audit-stateful-candidates.ts)', async () => {
    expect(readFileSync(CANDIDATES_DOC, 'utf8')).toBe(await candidatesDoc(candidates));
  });
});

import { describe, expect, it } from 'vitest';
import { cdkdBucketRole } from '../../src/state/bucket-names.js';

describe("cdkdBucketRole: cdkd's own buckets, which import never adopts", () => {
  const own = { stateBucket: 'team-cdkd-state', accountId: '123456789012' };
  it.each([
    ['team-cdkd-state', 'state'],
    ['TEAM-CDKD-STATE', 'state'],
    ['cdkd-state-123456789012', 'state'],
    ['cdkd-assets-123456789012-us-east-1', 'asset'],
    ['cdkd-assets-123456789012-us-gov-west-1', 'asset'],
    ['cdkd-assets-123456789012-eu-west-1', 'asset'],
    ['cdkd-state-999999999999', undefined],
    ['cdkd-assets-999999999999-us-east-1', undefined],
    ['cdkd-assets-123456789012-us-east-1-extra', undefined],
    ['cdkd-assets-123456789012', undefined],
    ['my-data', undefined],
  ])('%s -> %s', (name, role) => {
    expect(cdkdBucketRole(name, own)).toBe(role);
  });
});

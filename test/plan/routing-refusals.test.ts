import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import {
  claimedCreateOnlyDrops,
  refuseCreateOnlyDropReplacements,
  refuseUnaddressableAutoRoutes,
  type RoutedResource,
} from '../../src/plan/guards/routing-refusals.js';

const BUCKET = 'AWS::S3::Bucket';

/** A bucket an earlier --prefer-sdk-route deploy made with ObjectLockEnabled unsent. */
const claimed: RoutedResource = {
  logicalId: 'Vault',
  type: BUCKET,
  kind: 'no-op',
  recordedBy: 'sdk',
  recordedProperties: { ObjectLockEnabled: true },
  desiredProperties: { ObjectLockEnabled: true },
  uncoveredRecorded: ['ObjectLockEnabled'],
  route: { provisionedBy: 'cc-api' },
};

describe('claimedCreateOnlyDrops (spec 002, CREATE_ONLY_DROP_NEEDS_REPLACEMENT)', () => {
  it.each<[string, Partial<RoutedResource>, string[]]>([
    ['the flag is gone and the template is unchanged', {}, ['ObjectLockEnabled']],
    ['the flag is gone and another property changes', { kind: 'update' }, ['ObjectLockEnabled']],
    [
      'the flag still names it: the SDK provider drops it again',
      { route: { provisionedBy: 'sdk', dropped: ['ObjectLockEnabled'] } },
      [],
    ],
    [
      'the template changes its value: an ordinary replacement',
      { desiredProperties: { ObjectLockEnabled: false } },
      [],
    ],
    ['the template removes it', { desiredProperties: {} }, []],
    ['already replaced for another reason', { kind: 'replace' }, []],
    ['a cc-api record: Cloud Control sent it', { recordedBy: 'cc-api' }, []],
    [
      'a removable drop is never claimed (the record leaves it out)',
      {
        recordedProperties: { AccelerateConfiguration: {} },
        desiredProperties: { AccelerateConfiguration: {} },
        uncoveredRecorded: ['AccelerateConfiguration'],
      },
      [],
    ],
  ])('%s', (_, overrides, expected) => {
    expect(claimedCreateOnlyDrops({ ...claimed, ...overrides })).toEqual(expected);
  });

  it('refuses naming the resource, the property and the flags', () => {
    const refusal = catchError(() => refuseCreateOnlyDropReplacements([claimed]));
    expect(refusal.code).toBe('CREATE_ONLY_DROP_NEEDS_REPLACEMENT');
    expect(refusal.message).toContain('Vault (AWS::S3::Bucket): ObjectLockEnabled');
    expect(refusal.hint).toContain('--prefer-sdk-route AWS::S3::Bucket:ObjectLockEnabled');
    expect(refusal.hint).toContain('--recreate-via-cc-api Vault');
  });
});

describe('refuseUnaddressableAutoRoutes (spec 002: the id must be a Cloud Control identifier)', () => {
  const moving: RoutedResource = { ...claimed, kind: 'update', uncoveredRecorded: [] };
  it.each<[string, Partial<RoutedResource>, boolean, boolean]>([
    ['an sdk record moving to Cloud Control, id unverified', {}, false, true],
    ['an sdk record moving to Cloud Control, id verified', {}, true, false],
    ['a create: no id to address', { kind: 'create', recordedBy: undefined }, false, false],
    ['a replacement: a new resource', { kind: 'replace' }, false, false],
    ['staying on the SDK provider', { route: { provisionedBy: 'sdk' } }, false, false],
    ['already on Cloud Control', { recordedBy: 'cc-api' }, false, false],
  ])('%s', (_, overrides, verified, refused) => {
    const run = () => refuseUnaddressableAutoRoutes([{ ...moving, ...overrides }], () => verified);
    if (refused) {
      const error = catchError(run);
      expect(error.code).toBe('CC_IDENTIFIER_UNVERIFIED');
      expect(error.message).toContain('Vault (AWS::S3::Bucket)');
      expect(error.hint).toContain('--recreate-via-cc-api Vault');
    } else expect(run).not.toThrow();
  });
});

function catchError(run: () => void): CdkdError {
  try {
    run();
  } catch (error) {
    if (error instanceof CdkdError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

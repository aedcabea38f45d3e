import { describe, expect, it } from 'vitest';
import { chooseStackRegion } from '../../src/toolkit/state/state-inspection.js';

describe('chooseStackRegion', () => {
  const known = [
    { stackName: 'A', region: 'eu-west-1' },
    { stackName: 'B', region: 'us-east-1' },
    { stackName: 'B', region: 'eu-west-1' },
  ];
  it('uses the only region a stack has', () =>
    expect(chooseStackRegion('A', known, 'us-east-1')).toBe('eu-west-1'));
  it('uses the default region among several when it is one of them', () =>
    expect(chooseStackRegion('B', known, 'us-east-1')).toBe('us-east-1'));
  it('refuses several regions none of which is the default', () =>
    expect(() => chooseStackRegion('B', known, 'ap-south-1')).toThrow(
      /several regions: us-east-1, eu-west-1/,
    ));
  it('falls back to the default for an unknown stack', () =>
    expect(chooseStackRegion('C', known, 'ap-south-1')).toBe('ap-south-1'));
});

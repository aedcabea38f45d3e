import { describe, expect, it } from 'vitest';
import { principalKindOf, principalTypeOf } from '../../src/resource-types/index.js';

describe('inline policy principals in the catalog', () => {
  it.each([
    ['AWS::IAM::Role', 'Role'],
    ['AWS::IAM::User', 'User'],
    ['AWS::IAM::Group', 'Group'],
    ['AWS::IAM::Policy', undefined],
    ['AWS::IAM::InstanceProfile', undefined],
  ])('%s holds inline policies as a %s', (type, kind) => {
    expect(principalKindOf(type)).toBe(kind);
    if (kind) expect(principalTypeOf(kind as 'Role' | 'User' | 'Group')).toBe(type);
  });
});

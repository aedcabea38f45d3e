import { describe, expect, it } from 'vitest';
import {
  cloudControlTime,
  latencyProfile,
  PROFILE_NAMES,
  typeTime,
} from '../../src/latency-profiles/index.js';
import { latencySettingsSchema, profileSettings } from '../../src/sandbox/admin/latency.js';

describe('latency profiles', () => {
  it.each([
    // The examples: minutes for a NAT gateway, a CloudFront distribution, an RDS instance; an SSM parameter in ms.
    ['AWS::EC2::NatGateway', 'create', 120_000],
    ['AWS::CloudFront::Distribution', 'create', 300_000],
    ['AWS::RDS::DBInstance', 'create', 600_000],
    ['AWS::SSM::Parameter', 'create', 100],
    // A propagation window: a role usable by Lambda only seconds after it is made.
    ['AWS::IAM::Role', 'create', 8_000],
    ['AWS::Lambda::Function', 'create', 3_000],
  ] as const)('aws: %s %s takes %i ms', (type, action, ms) => {
    expect(typeTime(latencyProfile('aws'), type, action)).toBe(ms);
  });

  it('aws: Cloud Control adds its handler time to the type time', () => {
    const aws = latencyProfile('aws');
    expect(cloudControlTime(aws, 'AWS::SSM::Parameter', 'create')).toBe(3_100);
    expect(cloudControlTime(aws, 'AWS::EC2::NatGateway', 'delete')).toBe(63_000);
  });

  it('scales every figure down by the time scale', () => {
    const scaled = latencyProfile('aws', 10);
    expect(typeTime(scaled, 'AWS::EC2::NatGateway', 'create')).toBe(12_000);
    expect(scaled.callMs).toBe(3);
    expect(scaled.cloudControl.create).toBe(300);
    expect(typeTime(scaled, 'AWS::Made::Up', 'create')).toBe(100);
  });

  it.each(PROFILE_NAMES)('%s: is settings the sandbox accepts', (name) => {
    const settings = profileSettings({ profile: name, timeScale: 1 });
    expect(latencySettingsSchema.parse(settings)).toEqual(settings);
  });

  it('flat: the model tools are compared on, nothing else waits', () => {
    const flat = latencyProfile('flat');
    expect(flat.callMs).toBe(30);
    expect(typeTime(flat, 'AWS::IAM::Role', 'create')).toBe(1_000);
    expect(typeTime(flat, 'AWS::EC2::NatGateway', 'create')).toBe(0);
  });
});

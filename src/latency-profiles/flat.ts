import type { LatencyProfile } from './profile.js';

/**
 * The flat model bench/side-by-side.ts compares tools on: 30 ms a call, 1 s for an IAM role
 * to propagate and a function to turn Active, nothing else waits.
 */
export const FLAT_PROFILE: LatencyProfile = {
  types: {
    'AWS::IAM::Role': { create: 1000 },
    'AWS::Lambda::Function': { create: 1000 },
  },
  operations: {},
  callMs: 30,
  cloudControl: {},
  fallback: {},
};

/** No latency: the sandbox's default. */
export const NO_LATENCY: LatencyProfile = {
  types: {},
  operations: {},
  callMs: 0,
  cloudControl: {},
  fallback: {},
};

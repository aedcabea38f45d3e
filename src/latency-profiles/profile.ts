/** How long a resource of a type takes to reach a stable state after each action, in ms. */
export interface ActionTimes {
  create: number;
  update: number;
  delete: number;
}

/**
 * A latency model as the sandbox's `PUT /_sandbox/latency` takes it, and as the ETA and the
 * benches read it: AWS's own time per type and action (propagation windows included: an IAM
 * role's create time is the window before Lambda can assume it), the round trip of a call,
 * and what Cloud Control adds on top of a type's time when it is the route.
 */
export interface LatencyProfile {
  types: Record<string, Partial<ActionTimes>>;
  /** Per `service:Operation`, instead of `callMs`. */
  operations: Record<string, number>;
  /** Every other call's round trip. */
  callMs: number;
  /** Cloud Control's handler time added to a request's type time, per action. */
  cloudControl: Partial<ActionTimes>;
  /** The times of a type the profile does not list. */
  fallback: Partial<ActionTimes>;
}

export const PROFILE_NAMES = ['aws', 'flat', 'none'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

/** `profile` with every time divided by `timeScale` (rounded), so minutes of AWS run in seconds. */
export function scaledProfile(profile: LatencyProfile, timeScale: number): LatencyProfile {
  const scale = (ms: number) => Math.round(ms / timeScale);
  const scaleTimes = (times: Partial<ActionTimes>): Partial<ActionTimes> =>
    Object.fromEntries(Object.entries(times).map(([action, ms]) => [action, scale(ms)]));
  return {
    types: Object.fromEntries(Object.entries(profile.types).map(([type, t]) => [type, scaleTimes(t)])),
    operations: Object.fromEntries(Object.entries(profile.operations).map(([op, ms]) => [op, scale(ms)])),
    callMs: scale(profile.callMs),
    cloudControl: scaleTimes(profile.cloudControl),
    fallback: scaleTimes(profile.fallback),
  };
}

/** The profile's time for `type` and `action`: its own, else the fallback's, else 0. */
export function typeTime(profile: LatencyProfile, type: string, action: keyof ActionTimes): number {
  return profile.types[type]?.[action] ?? profile.fallback[action] ?? 0;
}

/** The same through Cloud Control: the type's time plus Cloud Control's handler time. */
export function cloudControlTime(profile: LatencyProfile, type: string, action: keyof ActionTimes): number {
  return typeTime(profile, type, action) + (profile.cloudControl[action] ?? 0);
}

// Named latency models: AWS's per-type times, shared by the sandbox (to behave like AWS) and
// the CLI (to predict a deploy's time) without either importing the other.
import { AWS_PROFILE } from './aws.js';
import { FLAT_PROFILE, NO_LATENCY } from './flat.js';
import { scaledProfile, type LatencyProfile, type ProfileName } from './profile.js';

export {
  cloudControlTime,
  isProfileName,
  PROFILE_NAMES,
  scaledProfile,
  typeTime,
  type ActionTimes,
  type LatencyProfile,
  type ProfileName,
} from './profile.js';

const PROFILES: Record<ProfileName, LatencyProfile> = {
  aws: AWS_PROFILE,
  flat: FLAT_PROFILE,
  none: NO_LATENCY,
};

/** The named profile, its times divided by `timeScale` (1: AWS's own). */
export function latencyProfile(name: ProfileName, timeScale = 1): LatencyProfile {
  return scaledProfile(PROFILES[name], timeScale);
}

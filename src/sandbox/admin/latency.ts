import * as z from 'zod';
import { latencyProfile, PROFILE_NAMES, type LatencyProfile } from '../../latency-profiles/index.js';

const delay = z.number().int().min(0);
const actionTimes = z.object({ create: delay, update: delay, delete: delay, read: delay }).partial().strict();

export const latencySettingsSchema = z
  .object({
    /** Per CloudFormation type and lifecycle action, consumed by resource-level modules (Cloud Control). */
    types: z.record(z.string(), actionTimes).default({}),
    /** Per `service:Operation` (e.g. `s3:PutObject`), applied to every call by the router. */
    operations: z.record(z.string().regex(/^[^:]+:[^:]+$/), delay).default({}),
    /** Every call without its own `operations` entry: the round trip. */
    callMs: delay.optional(),
    /** Cloud Control's handler time, added to a request's type time. */
    cloudControl: actionTimes.optional(),
    /** The times of a type `types` does not list. */
    fallback: actionTimes.optional(),
    /** The named profile these settings came from, and its time scale (what GET reports). */
    profile: z.enum(PROFILE_NAMES).optional(),
    timeScale: z.number().positive().optional(),
  })
  .strict();

/** `PUT /_sandbox/latency` with a profile's name instead of settings (`cdkd sandbox --latency-profile`). */
export const latencyProfileRequestSchema = z
  .object({ profile: z.enum(PROFILE_NAMES), timeScale: z.number().positive().default(1) })
  .strict();

export type LatencySettings = z.infer<typeof latencySettingsSchema>;
export type ResourceAction = 'create' | 'update' | 'delete' | 'read';

/** A named profile as settings, its times divided by `timeScale`. */
export function profileSettings(request: z.infer<typeof latencyProfileRequestSchema>): LatencySettings {
  const profile: LatencyProfile = latencyProfile(request.profile, request.timeScale);
  return {
    types: profile.types,
    operations: profile.operations,
    callMs: profile.callMs,
    cloudControl: profile.cloudControl,
    fallback: profile.fallback,
    profile: request.profile,
    timeScale: request.timeScale,
  };
}

/** The latency model set through `PUT /_sandbox/latency`; zero everywhere until set. */
export class LatencyModel {
  private settings: LatencySettings = { types: {}, operations: {} };

  get(): LatencySettings {
    return structuredClone(this.settings);
  }

  set(settings: LatencySettings): void {
    this.settings = structuredClone(settings);
  }

  forOperation(service: string, operation: string): number {
    return this.settings.operations[`${service}:${operation}`] ?? this.settings.callMs ?? 0;
  }

  /** How long a resource of `type` takes to reach a stable state after `action`, in ms. */
  forType(type: string, action: ResourceAction): number {
    return this.settings.types[type]?.[action] ?? this.settings.fallback?.[action] ?? 0;
  }

  /** The same through Cloud Control: the type's time plus its handler's. */
  forCloudControl(type: string, action: ResourceAction): number {
    return this.forType(type, action) + (this.settings.cloudControl?.[action] ?? 0);
  }
}

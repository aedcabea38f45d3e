import { z } from 'zod';

const delay = z.number().int().min(0);

export const latencySettingsSchema = z
  .object({
    /** Per CloudFormation type and lifecycle action, consumed by resource-level modules (Cloud Control). */
    types: z
      .record(
        z.string(),
        z.object({ create: delay, update: delay, delete: delay, read: delay }).partial().strict(),
      )
      .default({}),
    /** Per `service:Operation` (e.g. `s3:PutObject`), applied to every call by the router. */
    operations: z.record(z.string().regex(/^[^:]+:[^:]+$/), delay).default({}),
  })
  .strict();

export type LatencySettings = z.infer<typeof latencySettingsSchema>;
export type ResourceAction = 'create' | 'update' | 'delete' | 'read';

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
    return this.settings.operations[`${service}:${operation}`] ?? 0;
  }

  /** How long a resource of `type` takes to reach a stable state after `action`, in ms. */
  forType(type: string, action: ResourceAction): number {
    return this.settings.types[type]?.[action] ?? 0;
  }
}

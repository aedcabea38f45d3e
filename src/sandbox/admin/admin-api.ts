import * as z from 'zod';
import type { InventoryEntry, ServiceModule } from '../service-module.js';
import type { SandboxClock } from '../clock/clock.js';
import type { CallCounter } from './calls.js';
import { changeClock, clockChangeSchema, clockView } from './clock-api.js';
import type { DeliveryLog } from './deliveries.js';
import { faultSpecSchema, type FaultRegistry } from './faults.js';
import {
  latencyProfileRequestSchema,
  latencySettingsSchema,
  profileSettings,
  type LatencyModel,
} from './latency.js';
import type { RecentCalls } from './recent-calls.js';
import type { IdentityEnforcement } from '../policy/identity-enforcement.js';

export const ADMIN_PREFIX = '/_sandbox/';

export interface AdminDeps {
  modules: ReadonlyMap<string, ServiceModule>;
  faults: FaultRegistry;
  latency: LatencyModel;
  calls: CallCounter;
  recent: RecentCalls;
  clock: SandboxClock;
  deliveries: DeliveryLog;
  /** `--enforce-iam`: whether assumed-role calls are checked against the role's policies. */
  iam: IdentityEnforcement;
  accountId: string;
  region: string;
  /** Requests the endpoint is handling, this one included. */
  inFlight(): number;
}

/** `PUT /_sandbox/iam`: `{"enforce": true}` checks assumed-role calls from then on (`--enforce-iam`). */
const iamSettingSchema = z.object({ enforce: z.boolean() }).strict();

export interface AdminResponse {
  status: number;
  body: unknown;
}

/**
 * The JSON admin API under `/_sandbox/`: health, inventory, the local URLs of deployed APIs
 * and function URLs, faults, latency model, call counts with the deliveries between services,
 * requests in flight, the recent calls, the clock, IAM enforcement, and the services' read-only views.
 */
export async function handleAdmin(
  method: string,
  path: string,
  rawBody: Buffer,
  deps: AdminDeps,
  query: URLSearchParams = new URLSearchParams(),
): Promise<AdminResponse> {
  const route = `${method} ${path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '')}`;
  switch (route) {
    case 'GET health':
      return ok({
        status: 'ok',
        services: [...deps.modules.keys()],
        accountId: deps.accountId,
        region: deps.region,
      });
    case 'GET inventory':
      return ok(inventory(deps.modules));
    case 'GET endpoints':
      return ok({
        endpoints: [...deps.modules.values()].flatMap((module) => module.ingress?.endpoints() ?? []),
      });
    case 'GET faults':
      return ok({ faults: deps.faults.list() });
    case 'POST faults': {
      const spec = parseBody(rawBody, faultSpecSchema);
      return 'error' in spec ? spec.error : { status: 201, body: deps.faults.add(spec.value) };
    }
    case 'DELETE faults':
      return ok({ removed: deps.faults.clear() });
    case 'GET latency':
      return ok(deps.latency.get());
    case 'PUT latency': {
      // `{"profile": "aws", "timeScale": 10}` names a profile; anything else is the settings.
      if (namesProfile(rawBody)) {
        const named = parseBody(rawBody, latencyProfileRequestSchema);
        if ('error' in named) return named.error;
        deps.latency.set(profileSettings(named.value));
        return ok(deps.latency.get());
      }
      const settings = parseBody(rawBody, latencySettingsSchema);
      if ('error' in settings) return settings.error;
      deps.latency.set(settings.value);
      return ok(deps.latency.get());
    }
    case 'GET in-flight':
      // Requests still being answered, such as one a killed client sent; this one is not counted.
      return ok({ inFlight: deps.inFlight() - 1 });
    case 'GET calls':
      return ok({ ...deps.calls.snapshot(), deliveries: deps.deliveries.list() });
    case 'GET calls/recent':
      return ok({ calls: deps.recent.list() });
    case 'DELETE calls':
      deps.calls.reset();
      deps.recent.reset();
      deps.deliveries.reset();
      return ok({ ...deps.calls.snapshot(), deliveries: [] });
    case 'GET iam':
      return ok({ enforce: deps.iam.enabled });
    case 'PUT iam': {
      const setting = parseBody(rawBody, iamSettingSchema);
      if ('error' in setting) return setting.error;
      deps.iam.enabled = setting.value.enforce;
      return ok({ enforce: deps.iam.enabled });
    }
    case 'GET clock':
      return ok(clockView(deps.clock));
    case 'PUT clock': {
      const change = parseBody(rawBody, clockChangeSchema);
      if ('error' in change) return change.error;
      const view = await changeClock(deps.clock, change.value);
      return typeof view === 'string' ? fail(400, 'ValidationError', view) : ok(view);
    }
  }
  const view = /^GET views\/([^/]+)\/([^/]+)$/.exec(route);
  if (view) return moduleView(deps.modules, view[1]!, view[2]!, query);
  const faultId = /^DELETE faults\/([^/]+)$/.exec(route)?.[1];
  if (faultId !== undefined) {
    return deps.faults.remove(decodeURIComponent(faultId))
      ? ok({ removed: 1 })
      : fail(404, 'NotFound', `no fault with id ${faultId}`);
  }
  return fail(404, 'NotFound', `no admin route ${method} ${path}`);
}

function moduleView(
  modules: ReadonlyMap<string, ServiceModule>,
  service: string,
  name: string,
  query: URLSearchParams,
): AdminResponse {
  const view = modules.get(service)?.views?.[name];
  if (!view) return fail(404, 'NotFound', `no view ${name} of service ${service}`);
  const body = view(query);
  return body === undefined
    ? fail(404, 'NotFound', `${service} ${name}: nothing matches ${query.toString() || 'an empty query'}`)
    : ok(body);
}

function inventory(
  modules: ReadonlyMap<string, ServiceModule>,
): Record<string, Record<string, InventoryEntry[]>> {
  const result: Record<string, Record<string, InventoryEntry[]>> = {};
  for (const [name, module] of modules) result[name] = module.inventory();
  return result;
}

function parseBody<T extends z.ZodType>(
  rawBody: Buffer,
  schema: T,
): { value: z.infer<T> } | { error: AdminResponse } {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { error: fail(400, 'InvalidJson', 'the request body is not valid JSON') };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const message = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
    );
    return { error: fail(400, 'ValidationError', message.join('; ')) };
  }
  return { value: parsed.data };
}

function ok(body: unknown): AdminResponse {
  return { status: 200, body };
}

function fail(status: number, code: string, message: string): AdminResponse {
  return { status, body: { error: { code, message } } };
}

/** A body naming a profile without settings of its own (what GET returns carries both, and is settings). */
function namesProfile(rawBody: Buffer): boolean {
  try {
    const json: unknown = JSON.parse(rawBody.toString('utf8'));
    return typeof json === 'object' && json !== null && 'profile' in json && !('types' in json);
  } catch {
    return false;
  }
}

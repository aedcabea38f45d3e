import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import type { AdminDeps } from './admin/admin-api.js';
import { CallCounter } from './admin/calls.js';
import { RecentCalls } from './admin/recent-calls.js';
import { DeliveryLog } from './admin/deliveries.js';
import { FaultRegistry } from './admin/faults.js';
import { LatencyModel, profileSettings } from './admin/latency.js';
import type { ProfileName } from '../latency-profiles/index.js';
import { SandboxClock } from './clock/clock.js';
import { dispatch } from './dispatch.js';
import { IdentityEnforcement } from './policy/identity-enforcement.js';
import { listen, requestHeaders, responseHeaders, type Request, type Response } from './listener.js';
import { ResourceHandlers } from './resources.js';
import { readBody, type SandboxResponse } from './request.js';
import type { SandboxContext, ServiceModule, ServiceModuleFactory } from './service-module.js';
import { builtinServices } from './services/index.js';
import { FileStorage } from './storage/file-storage.js';
import { MemoryStorage } from './storage/storage.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Persist state here (and load what is there); in memory when absent. */
  dataDir?: string;
  accountId?: string;
  region?: string;
  /** Bucket names "owned by another account": CreateBucket gets BucketAlreadyExists. */
  foreignBuckets?: string[];
  /** The sandbox's time (a test may hand in one it moves itself); the machine's time by default. */
  clock?: SandboxClock;
  /** Service modules to serve instead of the built-in ones. */
  services?: readonly ServiceModuleFactory[];
  /**
   * Where Lambda's Node.js functions get AWS SDK packages the sandbox does not ship, installed
   * on first use (default: CDKD_SANDBOX_SDK_CACHE, else the user's cache folder).
   */
  sdkCacheDir?: string;
  /** The sandbox's own log (what it did on a function's behalf, and what failed): stderr by default. */
  log?: (line: string) => void;
  /**
   * Check calls signed with credentials STS AssumeRole issued against the role's identity
   * policies and permissions boundary (`cdkd sandbox --enforce-iam`; `PUT /_sandbox/iam`
   * changes it while running). Off by default: every call is allowed.
   */
  enforceIam?: boolean;
  /** The latency model to start with, a named profile (`cdkd sandbox --latency-profile`); none by default. */
  latencyProfile?: { profile: ProfileName; timeScale: number };
}

export interface Sandbox {
  url: string;
  port: number;
  host: string;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5000;

export const DEFAULT_FOREIGN_BUCKETS = ['examplebucket', 'foreign-owned-bucket'];

/** Starts the local AWS-compatible endpoint. Rejects with the listen error (e.g. EADDRINUSE). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const latency = new LatencyModel();
  if (options.latencyProfile) latency.set(profileSettings(options.latencyProfile));
  const context: SandboxContext = {
    accountId: options.accountId ?? '000000000000',
    region: options.region ?? 'us-east-1',
    storage: options.dataDir ? await FileStorage.open(resolve(options.dataDir)) : new MemoryStorage(),
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
    latency,
    foreignBuckets: new Set(options.foreignBuckets ?? DEFAULT_FOREIGN_BUCKETS),
    resources: new ResourceHandlers(),
    ...(options.sdkCacheDir ? { sdkCacheDir: resolve(options.sdkCacheDir) } : {}),
    log: options.log ?? ((line) => void process.stderr.write(`cdkd sandbox: ${line}\n`)),
    clock: options.clock ?? new SandboxClock(),
    deliveries: new DeliveryLog(),
  };
  const modules = new Map<string, ServiceModule>();
  for (const factory of options.services ?? builtinServices) {
    const module = await factory(context);
    modules.set(module.name, module);
  }
  const deps: AdminDeps = {
    modules,
    faults: new FaultRegistry(),
    latency,
    calls: new CallCounter(),
    recent: new RecentCalls(),
    clock: context.clock,
    deliveries: context.deliveries,
    iam: new IdentityEnforcement(context, options.enforceIam ?? false),
    accountId: context.accountId,
    region: context.region,
    inFlight: () => inFlight,
  };

  let inFlight = 0;
  let drained: (() => void) | undefined;
  const listener = await listen(options.port ?? 0, host, (req, res) => {
    inFlight += 1;
    serve(req, res, deps).finally(() => {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    });
  });
  const port = listener.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  // What code the sandbox runs calls back on: a wildcard bind is reached on loopback.
  const callbackHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : urlHost;
  context.endpoint = `http://${callbackHost}:${port}`;
  for (const module of modules.values()) module.started?.();

  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    async stop() {
      listener.closeIdle();
      // Let requests in flight finish (their writes are persisted), but not forever.
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((done) => (drained = done)),
          sleep(STOP_GRACE_MS, undefined, { ref: false }),
        ]);
      }
      await listener.closeAll();
      context.clock.close();
      for (const module of modules.values()) await module.close?.();
    },
  };
}

async function serve(req: Request, res: Response, deps: AdminDeps): Promise<void> {
  try {
    const body = await readBody(req);
    const { headers, rawHeaders } = requestHeaders(req);
    const response = await dispatch(
      {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        body,
        rawHeaders,
        ...(req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
      },
      deps,
    );
    if (response.drop) res.destroy();
    else write(res, req.method === 'HEAD', response);
  } catch (error) {
    // The connection broke mid-request; there is nobody to answer.
    if (!res.headersSent) res.destroy(error as Error);
  }
}

function write(res: Response, head: boolean, response: SandboxResponse): void {
  const body = response.body === undefined ? Buffer.alloc(0) : Buffer.from(response.body);
  const headers = responseHeaders(res, { ...response.headers, ...response.headerLists });
  // HEAD keeps the Content-Length the handler set (the object's size) but sends no body.
  if (!head || headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  if (response.status === 204 || response.status === 304) delete headers['content-length'];
  res.writeHead(response.status, headers);
  if (head) res.end();
  else res.end(body);
}

/**
 * What a user on AWS would see (not a test). The sandbox (a child process) plays the `aws`
 * latency profile (src/latency-profiles/aws.ts: AWS's per-type times with their propagation
 * windows, 30 ms a call, Cloud Control's handler time), TIME_SCALE times faster; every
 * provider wait and retry sleep runs on the same scaled clock, so Cloud Control's polling
 * schedule (1 s, x1.5, <= 10 s) is played as it is. Per app shape (wide, deep, serverless,
 * VPC, container service), per route (SDK providers where cdkd has them, else Cloud Control;
 * Cloud Control only) and per --concurrency (10 and the default), it prints the wall time
 * against the model's critical path, calls per resource, and the ETA's error; then the mean
 * time per type on each route.
 * Run: npx tsx bench/aws-profile.ts                 (about 10 minutes)
 *      TIME_SCALE=50 npx tsx bench/aws-profile.ts vpc   (one shape, faster)
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../src/aws/client-factory.js';
import { DEFAULT_CONCURRENCY } from '../src/cli/options/deploy-options.js';
import { createEngine } from '../src/engine/engine.js';
import type { DeployEvent } from '../src/engine/events.js';
import { criticalPath, remainingMs, scheduleNodes, type EtaNode } from '../src/eta/index.js';
import { cloudControlTime, latencyProfile, typeTime } from '../src/latency-profiles/index.js';
import type { DeploySchedule } from '../src/messages/index.js';
import type { PlannedOperation } from '../src/plan/index.js';
import type { ProviderRegistry } from '../src/providers/registry.js';
import type { CallsSnapshot } from '../src/sandbox/admin/calls.js';
import { openStateBackend, type StateBackend } from '../src/state/state-backend.js';
import { eventsTo } from '../test/helpers/recording-io-host.js';
import { chain, containerService, vpc } from './app-shapes.js';
import {
  adminApi,
  BUCKET,
  credentialsEnv,
  idealSchedule,
  REGION,
  request,
  scaledClock,
  serverless,
  startSandboxProcess,
  stopSandboxProcess,
  wide,
  type Template,
} from './deploy-engine.js';
import { ccRegistry, scaledRetry, sdkRegistry } from './registries.js';

/** AWS's minutes played in seconds: a 2-minute NAT gateway takes 12 s at 10. */
const TIME_SCALE = Number(process.env.TIME_SCALE ?? 10);
const AWS = latencyProfile('aws');
const CONCURRENCIES = [10, DEFAULT_CONCURRENCY];

const SHAPES: Array<{ name: string; template: Template }> = [
  { name: 'wide', template: wide(100) },
  { name: 'deep', template: chain(20) },
  { name: 'serverless', template: serverless(9, { targetsPerRule: 5 }) },
  { name: 'vpc', template: vpc(2) },
  { name: 'container', template: containerService(2) },
];

interface Run {
  shape: string;
  route: 'sdk' | 'cc';
  concurrency: number;
  resources: number;
  wallMs: number;
  /** The model's critical path (AWS ms), each resource on the route it took. */
  pathMs: number;
  /** The engine's scheduling rule on the model's times at this concurrency (AWS ms). */
  boundMs: number;
  calls: number;
  ccCalls: number;
  /** The ETA's prediction at the start (AWS ms): the profile's times, no past deploys. */
  predictedMs: number;
  /** Per type: resource durations (AWS ms). */
  byType: Map<string, number[]>;
  /** Per type: how many went through the SDK. */
  sdkCount: Map<string, number>;
}

async function measure(
  shape: (typeof SHAPES)[number],
  route: Run['route'],
  concurrency: number,
  registry: ProviderRegistry,
  backend: StateBackend,
  clients: AwsClients,
  admin: ReturnType<typeof adminApi>,
): Promise<Run> {
  const clock = scaledClock(TIME_SCALE);
  const events: DeployEvent[] = [];
  const engine = await createEngine({
    backend,
    clients,
    registry,
    io: eventsTo((event) => events.push(event)),
    command: 'deploy',
    retry: scaledRetry(clock),
    regions: [REGION],
  });
  const req = request(`aws-${shape.name}-${route}-${concurrency}`, shape.template);
  await admin('DELETE', 'calls');
  const started = performance.now();
  const result = await engine.deploy(req, { concurrency, estimate: true });
  const wallMs = (performance.now() - started) * TIME_SCALE;
  const calls = await admin<CallsSnapshot>('GET', 'calls');
  const stored = await backend.store.read({ stackName: req.stateName, region: REGION });
  const records = stored?.document.resources ?? {};
  const ops = result.plan.operations.filter((op) => op.phase === 'deploy' && op.kind !== 'no-op');
  const modelMs = (op: PlannedOperation) =>
    records[op.logicalId]?.provisionedBy === 'cc-api'
      ? cloudControlTime(AWS, op.type, 'create')
      : typeTime(AWS, op.type, 'create');
  const nodes: EtaNode[] = ops.map((op) => ({
    id: op.logicalId,
    dependsOn: op.dependsOn,
    durationMs: modelMs(op),
  }));
  const durations = new Map(ops.map((op) => [op.logicalId, modelMs(op)]));
  const start = events.find((e) => e.kind === 'stack' && e.status === 'started');
  const schedule = start?.kind === 'stack' ? (start.schedule as DeploySchedule) : undefined;
  const predictedMs = schedule
    ? remainingMs(
        scheduleNodes(schedule.operations, schedule.pastMs, AWS)!,
        { done: new Set(), inFlight: new Map() },
        concurrency,
      )
    : 0;
  const byType = new Map<string, number[]>();
  const sdkCount = new Map<string, number>();
  for (const event of events) {
    if (event.kind !== 'resource' || event.status !== 'succeeded' || event.durationMs === undefined) continue;
    byType.set(event.type, [...(byType.get(event.type) ?? []), event.durationMs * TIME_SCALE]);
    if (records[event.logicalId]?.provisionedBy === 'sdk')
      sdkCount.set(event.type, (sdkCount.get(event.type) ?? 0) + 1);
  }
  const count = (prefix: string) =>
    Object.entries(calls.calls)
      .filter(([name]) => name.startsWith(prefix))
      .reduce((sum, [, entry]) => sum + entry.count, 0);
  const cleanup = await createEngine({
    backend,
    clients,
    registry,
    io: eventsTo(() => {}),
    command: 'destroy',
    retry: scaledRetry(clock),
    regions: [REGION],
  });
  await cleanup.destroy(req, { concurrency: 64 });
  return {
    shape: shape.name,
    route,
    concurrency,
    resources: ops.length,
    wallMs,
    pathMs: criticalPath(nodes).totalMs,
    boundMs: idealSchedule(ops, (id) => durations.get(id) ?? 0, concurrency),
    calls: calls.total,
    ccCalls: count('cloudcontrolapi:'),
    predictedMs,
    byType,
    sdkCount,
  };
}

const secs = (ms: number) => (ms / 1000).toFixed(1);
const pct = (predicted: number, took: number) => {
  const error = Math.round(((predicted - took) / took) * 100);
  return `${error >= 0 ? '+' : ''}${error}%`;
};

function printRun(run: Run): void {
  console.log(
    [
      run.shape.padEnd(11),
      run.route.padEnd(4),
      String(run.concurrency).padStart(4),
      String(run.resources).padStart(4),
      secs(run.wallMs).padStart(8),
      secs(run.pathMs).padStart(8),
      (run.wallMs / run.pathMs).toFixed(2).padStart(7),
      secs(run.boundMs).padStart(8),
      (run.wallMs / run.boundMs).toFixed(2).padStart(7),
      (run.calls / run.resources).toFixed(1).padStart(9),
      (run.ccCalls / run.resources).toFixed(1).padStart(8),
      secs(run.predictedMs).padStart(8),
      pct(run.predictedMs, run.wallMs).padStart(6),
    ].join(' '),
  );
}

function printTypes(runs: Run[]): void {
  const mean = (route: Run['route'], type: string) => {
    const all = runs.filter((r) => r.route === route).flatMap((r) => r.byType.get(type) ?? []);
    return all.length === 0 ? undefined : all.reduce((a, b) => a + b, 0) / all.length;
  };
  const types = [...new Set(runs.flatMap((r) => [...r.byType.keys()]))].sort();
  console.log(`\nper type, mean time of one operation (AWS s): SDK route vs Cloud Control only`);
  console.log(
    `${'type'.padEnd(42)}${'profile'.padStart(8)}${'sdk'.padStart(8)}${'cc'.padStart(8)}${'cc/sdk'.padStart(8)}  route taken`,
  );
  for (const type of types) {
    const sdk = mean('sdk', type);
    const cc = mean('cc', type);
    const viaSdk = runs.filter((r) => r.route === 'sdk').some((r) => (r.sdkCount.get(type) ?? 0) > 0);
    console.log(
      `${type.replace(/^AWS::/, '').padEnd(42)}${secs(typeTime(AWS, type, 'create')).padStart(8)}${(sdk === undefined ? '-' : secs(sdk)).padStart(8)}${(cc === undefined ? '-' : secs(cc)).padStart(8)}${(sdk && cc ? (cc / sdk).toFixed(2) : '-').padStart(8)}  ${viaSdk ? 'sdk' : 'cc-api'}`,
    );
  }
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const { url, child } = await startSandboxProcess([
    '--latency-profile',
    'aws',
    '--latency-time-scale',
    String(TIME_SCALE),
  ]);
  try {
    Object.assign(process.env, credentialsEnv(), { AWS_ENDPOINT_URL: url });
    delete process.env.AWS_PROFILE;
    const admin = adminApi(url);
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
    const backend = await openStateBackend(clients, BUCKET, 'cdkd');
    const filters = process.argv.slice(2);
    const shapes = SHAPES.filter((shape) => filters.length === 0 || filters.includes(shape.name));
    console.log(`The aws latency profile (src/latency-profiles/aws.ts), played ${TIME_SCALE}x faster by the
sandbox; every figure below is in AWS seconds (measured x${TIME_SCALE}). Provider waits and retry
sleeps run on the same scaled clock (Cloud Control polls at 1 s, x1.5, <= 10 s of AWS time).
Engine time is not scaled: each real ms of it counts ${TIME_SCALE} ms here, so small, fast shapes
(deep) overstate the engine's share.
  path     = critical path of the model (each resource's profile time on the route it took,
             Cloud Control's ${secs(AWS.cloudControl.create ?? 0)} s handler time included); wall/path is the goal (<= 1.05)
  bound    = the engine's scheduling rule on the model's times at that concurrency (the
             critical path when slots do not limit)
  calls/res= API calls per resource (state and lock included); cc/res = Cloud Control calls
  ETA      = the live view's prediction at the start (the profile's times: a first deploy has
             no past); err = (ETA - wall) / wall
  sdk      = SDK providers where cdkd has them, else Cloud Control; cc = Cloud Control only
`);
    console.log(
      [
        'shape'.padEnd(11),
        'rte'.padEnd(4),
        'conc'.padStart(4),
        'res'.padStart(4),
        'wall s'.padStart(8),
        'path s'.padStart(8),
        'w/path'.padStart(7),
        'bound s'.padStart(8),
        'w/bound'.padStart(7),
        'calls/res'.padStart(9),
        'cc/res'.padStart(8),
        'ETA s'.padStart(8),
        'err'.padStart(6),
      ].join(' '),
    );
    const runs: Run[] = [];
    const clock = scaledClock(TIME_SCALE);
    for (const shape of shapes) {
      for (const route of ['sdk', 'cc'] as const) {
        for (const concurrency of CONCURRENCIES) {
          const registry = route === 'sdk' ? sdkRegistry(clock) : ccRegistry(clock);
          const run = await measure(shape, route, concurrency, registry, backend, clients, admin);
          runs.push(run);
          printRun(run);
        }
      }
    }
    printTypes(runs);
    console.log(`\nbench took ${secs(performance.now() - benchStarted)} s (real)`);
  } finally {
    await stopSandboxProcess(child);
  }
}

await main();

/**
 * SDK providers against Cloud Control (not a test). The serverless shape of
 * bench/deploy-engine.ts (9 services, ~100 resources) is deployed and destroyed twice on the
 * same sandbox (a child process) and latency model: once with a Cloud-Control-only registry
 * and once with the registry every command uses (`defaultRegistry()`: SDK providers where
 * cdkd has them, Cloud Control for the rest), with every provider wait and retry sleep
 * scaled by the same clock. Prints wall time, the ratio CC / SDK and the API calls each made
 * (from the sandbox's `GET /_sandbox/calls`, reset before each phase): total, mutating and
 * by service.
 * Run: npx tsx bench/sdk-vs-cc.ts            (about 20 seconds)
 */
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../src/aws/client-factory.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import type { Clock } from '../src/providers/clock.js';
import { ProviderRegistry } from '../src/providers/registry.js';
import type { CallsSnapshot } from '../src/sandbox/admin/calls.js';
import { openStateBackend, type StateBackend } from '../src/state/state-backend.js';
import {
  adminApi,
  BUCKET,
  CREATE_MS,
  credentialsEnv,
  REGION,
  request,
  scaledClock,
  serverless,
  startSandboxProcess,
  stopSandboxProcess,
  TIME_SCALE,
} from './deploy-engine.js';
import { eventsTo } from '../test/helpers/recording-io-host.js';
import { ccRegistry, scaledRetry, sdkRegistry } from './registries.js';

const SERVICES = 9;
/** cdkd's default --concurrency. */
const CONCURRENCY = 10;

interface Phase {
  wallMs: number;
  calls: CallsSnapshot;
  resources: number;
}

interface Variant {
  name: string;
  deploy: Phase;
  destroy: Phase;
  /** Resources recorded per provider kind after the deploy. */
  provisionedBy: Record<string, number>;
}

async function runVariant(
  name: string,
  registry: ProviderRegistry,
  clients: AwsClients,
  backend: StateBackend,
  admin: ReturnType<typeof adminApi>,
  clock: Clock,
): Promise<Variant> {
  const engine: Engine = await createEngine({
    backend,
    clients,
    registry,
    io: eventsTo(() => {}),
    command: 'deploy',
    retry: scaledRetry(clock),
    regions: [REGION],
  });
  const req = request(`sdk-vs-cc-${name}`, serverless(SERVICES, { targetsPerRule: 5 }));
  const phase = async (run: () => Promise<unknown>): Promise<Phase> => {
    await admin('DELETE', 'calls');
    const started = performance.now();
    await run();
    const wallMs = performance.now() - started;
    return { wallMs, calls: await admin<CallsSnapshot>('GET', 'calls'), resources: 0 };
  };
  const deploy = await phase(() => engine.deploy(req, { concurrency: CONCURRENCY }));
  const stored = await backend.store.read({ stackName: req.stateName, region: REGION });
  const records = Object.values(stored?.document.resources ?? {});
  deploy.resources = records.length;
  const provisionedBy: Record<string, number> = {};
  for (const record of records) {
    const kind = `${record.provisionedBy} ${record.type.replace(/^AWS::/, '')}`;
    provisionedBy[kind] = (provisionedBy[kind] ?? 0) + 1;
  }
  const destroy = await phase(() => engine.destroy(req, { concurrency: CONCURRENCY }));
  const left = await backend.store.read({ stackName: req.stateName, region: REGION });
  destroy.resources = Object.keys(left?.document.resources ?? {}).length;
  return { name, deploy, destroy, provisionedBy };
}

// ---------------------------------------------------------------------------------------
// Output

const secs = (ms: number) => (ms / 1000).toFixed(2);
const ratio = (cc: number, sdk: number) => (sdk > 0 ? `${(cc / sdk).toFixed(2)}x` : '-');

function byService(calls: CallsSnapshot): Map<string, { total: number; mutating: number }> {
  const out = new Map<string, { total: number; mutating: number }>();
  for (const [key, entry] of Object.entries(calls.calls)) {
    const service = key.slice(0, key.indexOf(':'));
    const row = out.get(service) ?? { total: 0, mutating: 0 };
    row.total += entry.count;
    if (entry.mutating) row.mutating += entry.count;
    out.set(service, row);
  }
  return out;
}

/** `sdk 93, cc-api 9 (Lambda::EventSourceMapping 9)`. */
function recorded(provisionedBy: Record<string, number>): string {
  const kinds = new Map<string, Array<[string, number]>>();
  for (const [key, n] of Object.entries(provisionedBy)) {
    const [kind, type] = key.split(' ') as [string, string];
    kinds.set(kind, [...(kinds.get(kind) ?? []), [type, n]]);
  }
  return [...kinds]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([kind, types]) => {
      const total = types.reduce((sum, [, n]) => sum + n, 0);
      return kind === 'sdk'
        ? `sdk ${total}`
        : `${kind} ${total} (${types.map(([t, n]) => `${t} ${n}`).join(', ')})`;
    })
    .join(', ');
}

function printPhase(title: string, cc: Phase, sdk: Phase): void {
  const row = (label: string, a: string, b: string, r: string) =>
    console.log(`  ${label.padEnd(28)}${a.padStart(10)}${b.padStart(10)}${r.padStart(10)}`);
  console.log(`\n${title}`);
  row('', 'CC only', 'SDK', 'CC/SDK');
  row('wall s', secs(cc.wallMs), secs(sdk.wallMs), ratio(cc.wallMs, sdk.wallMs));
  row('API calls', String(cc.calls.total), String(sdk.calls.total), ratio(cc.calls.total, sdk.calls.total));
  row(
    '  mutating',
    String(cc.calls.mutating),
    String(sdk.calls.mutating),
    ratio(cc.calls.mutating, sdk.calls.mutating),
  );
  const ccServices = byService(cc.calls);
  const sdkServices = byService(sdk.calls);
  const services = [...new Set([...ccServices.keys(), ...sdkServices.keys()])].sort();
  for (const service of services) {
    const a = ccServices.get(service);
    const b = sdkServices.get(service);
    const cell = (entry: { total: number; mutating: number } | undefined) =>
      entry ? `${entry.total} (${entry.mutating})` : '-';
    const label = service === 's3' ? 's3 (state + lock)' : service;
    row(`  ${label}`, cell(a), cell(b), '');
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const { url, child } = await startSandboxProcess();
  try {
    Object.assign(process.env, credentialsEnv(), { AWS_ENDPOINT_URL: url });
    delete process.env.AWS_PROFILE;
    const admin = adminApi(url);
    await admin('PUT', 'latency', {
      types: Object.fromEntries(
        Object.entries(CREATE_MS).map(([type, ms]) => [type, { create: ms, update: ms, delete: 0 }]),
      ),
    });
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
    const backend = await openStateBackend(clients, BUCKET, 'cdkd');
    const clock = scaledClock(TIME_SCALE);

    const cc = await runVariant('cc', ccRegistry(clock), clients, backend, admin, clock);
    const sdk = await runVariant('sdk', sdkRegistry(clock), clients, backend, admin, clock);

    console.log(`SDK providers vs Cloud Control: the serverless shape of bench/deploy-engine.ts
(${SERVICES} services, ${cc.deploy.resources} resources; the schedule split into rules of <= 5 targets,
EventBridge's limit), deployed then destroyed at --concurrency ${CONCURRENCY}
through the real engine and AWS SDK against the sandbox in a child process. Same latency
model for both (real ms; x${TIME_SCALE} = the AWS time they stand for): ${Object.entries(CREATE_MS)
      .map(([type, ms]) => `${type.replace(/^AWS::/, '')} ${ms}`)
      .join(', ')}.
Cloud Control requests complete after their type's delay; on the SDK path the model delays
Lambda's Pending -> Active and IAM role propagation (a role younger than its delay cannot
be assumed by Lambda), and DynamoDB tables pass through CREATING. Every provider wait and
retry sleep runs ${TIME_SCALE}x faster on both paths. API calls are counted by the sandbox
(service: total (mutating)); s3 is the state backend and its lock.
  CC only  new ProviderRegistry(new CloudControlProvider())
  SDK      defaultRegistry(): SDK providers, Cloud Control for the rest
           (recorded after deploy: ${recorded(sdk.provisionedBy)})`);
    printPhase('deploy', cc.deploy, sdk.deploy);
    printPhase('destroy', cc.destroy, sdk.destroy);
    for (const variant of [cc, sdk]) {
      if (variant.destroy.resources > 0)
        console.log(`warning: ${variant.name}: ${variant.destroy.resources} resources left in state`);
    }
    console.log(`\nbench took ${secs(performance.now() - started)} s`);
  } finally {
    await stopSandboxProcess(child);
  }
}

await main();

/**
 * Memory and sandbox-cost benchmark (not a test). The real engine deploys a 1,000-resource
 * wide stack through Cloud Control to a sandbox child process, then redeploys it unchanged
 * ten times. Prints this process's peak RSS, the heap after each no-op redeploy (after a
 * full GC, so growth would show as a rising column), and the sandbox's CPU per request
 * (read from /proc, Linux only). Run: npx tsx --expose-gc bench/memory.ts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../src/aws/client-factory.js';
import { createEngine } from '../src/engine/engine.js';
import { CloudControlProvider } from '../src/providers/cloudcontrol/provider.js';
import { ProviderRegistry } from '../src/providers/registry.js';
import { openStateBackend } from '../src/state/state-backend.js';
import { providerRetry } from '../src/toolkit/session/provider-wiring.js';
import {
  adminApi,
  BUCKET,
  credentialsEnv,
  REGION,
  request,
  scaledClock,
  startSandboxProcess,
  stopSandboxProcess,
  wide,
} from './deploy-engine.js';
import { eventsTo } from '../test/helpers/recording-io-host.js';

const RESOURCES = 1000;
const NO_OP_RUNS = 10;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** CPU ms a process has used so far (utime + stime from /proc), or undefined off Linux. */
function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const perSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return (ticks * 1000) / perSecond;
  } catch {
    return undefined;
  }
}

function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const { url, child } = await startSandboxProcess();
  try {
    Object.assign(process.env, credentialsEnv(), { AWS_ENDPOINT_URL: url });
    delete process.env.AWS_PROFILE;
    const admin = adminApi(url);
    const clients = new AwsClients();
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: BUCKET }));
    const backend = await openStateBackend(clients, BUCKET, 'cdkd');
    const engine = await createEngine({
      backend,
      clients,
      registry: new ProviderRegistry(new CloudControlProvider({ clock: scaledClock(100) })),
      io: eventsTo(() => {}),
      command: 'deploy',
      retry: providerRetry((message) => console.error(`warning: ${message}`)),
      regions: [REGION],
    });
    const req = request('bench-memory', wide(RESOURCES));

    await admin('DELETE', 'calls');
    const sandboxBefore = processCpuMs(child.pid!);
    await engine.deploy(req, { concurrency: 32 });
    const sandboxAfter = processCpuMs(child.pid!);
    const { total } = await admin<{ total: number }>('GET', 'calls');
    console.log(`Memory, ${RESOURCES}-resource wide stack (Cloud Control, sandbox in a child process)`);
    console.log(
      `  peak RSS of this process after the deploy: ${mb(process.resourceUsage().maxRSS * 1024)} MB`,
    );
    if (sandboxBefore !== undefined && sandboxAfter !== undefined) {
      const perRequest = (sandboxAfter - sandboxBefore) / total;
      console.log(`  sandbox: ${total} requests, ${perRequest.toFixed(2)} ms CPU per request`);
    }

    const heaps: string[] = [];
    for (let i = 0; i < NO_OP_RUNS; i++) {
      await engine.deploy(req, { concurrency: 32 });
      heaps.push(mb(heapAfterGc()));
    }
    const gcNote = (globalThis as { gc?: unknown }).gc ? 'after a full GC' : 'no --expose-gc: without a GC';
    console.log(`  heap after each of ${NO_OP_RUNS} no-op redeploys (MB, ${gcNote}): ${heaps.join(' ')}`);
    await engine.destroy(req, { concurrency: 64 });
  } finally {
    await stopSandboxProcess(child);
  }
}

await main();

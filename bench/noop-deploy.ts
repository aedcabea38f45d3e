/**
 * No-op redeploy benchmark (not a test): the built CLI deploys a pre-synthesized 500-resource
 * stack to a sandbox (latency model off), then redeploys it unchanged. Prints the redeploy's
 * CPU time against `node -e 0`, and the API calls it made (none mutating, as many for 100
 * resources as for 500). Run: npm run build && npx tsx bench/noop-deploy.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStackAssembly } from './assembly-dir.js';
import { childCpuMs, medianCpuMs } from './child-cpu.js';
import { adminApi, credentialsEnv, startSandboxProcess, stopSandboxProcess, wide } from './deploy-engine.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ROUNDS = 7;

interface CallsSnapshot {
  calls: Record<string, { count: number; mutating: boolean }>;
  total: number;
  mutating: number;
}

async function main(): Promise<void> {
  const { url, child } = await startSandboxProcess();
  const admin = adminApi(url);
  const root = mkdtempSync(join(tmpdir(), 'cdkd-bench-noop-'));
  const env = { ...credentialsEnv(), AWS_ENDPOINT_URL: url };
  // Each size under its own state prefix, so neither reads the other's state.
  const deploy = (dir: string, size: number) => ({
    args: [CLI, 'deploy', '--app', dir, '--state-prefix', `noop-${size}`, '--require-approval', 'never'],
    env,
  });
  try {
    await childCpuMs({ args: [CLI, 'bootstrap'], env });
    const calls: Record<number, CallsSnapshot> = {};
    const dirs: Record<number, string> = {};
    for (const size of [100, 500]) {
      dirs[size] = writeStackAssembly(root, `NoOp${size}`, wide(size));
      await childCpuMs(deploy(dirs[size]!, size));
      await admin('DELETE', 'calls');
      await childCpuMs(deploy(dirs[size]!, size));
      calls[size] = await admin<CallsSnapshot>('GET', 'calls');
    }
    const cpu = await medianCpuMs(
      { 'node -e 0': { args: ['-e', '0'] }, 'no-op 500': deploy(dirs[500]!, 500) },
      ROUNDS,
    );
    const base = cpu['node -e 0']!;
    console.log(
      `No-op redeploy (built CLI, pre-synthesized assembly, no latency model), median of ${ROUNDS}`,
    );
    console.log(`  node -e 0                 ${cpu['node -e 0']!.toFixed(0).padStart(5)} ms CPU`);
    console.log(
      `  cdkd deploy, 500 no-op    ${cpu['no-op 500']!.toFixed(0).padStart(5)} ms CPU  ${(cpu['no-op 500']! / base).toFixed(2)}x node -e 0`,
    );
    for (const size of [100, 500]) {
      const snapshot = calls[size]!;
      const list = Object.entries(snapshot.calls)
        .map(([name, { count }]) => `${name} ${count}`)
        .join(', ');
      console.log(`  ${size} resources: ${snapshot.total} calls, ${snapshot.mutating} mutating (${list})`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    await stopSandboxProcess(child);
  }
}

await main();

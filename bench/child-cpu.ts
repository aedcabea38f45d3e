/**
 * CPU time (user + system) of a Node child process, read by the child itself on exit:
 * getrusage counts the whole process from its start, so Node's own bootstrap is included,
 * and unlike wall time it holds still on a loaded machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'cdkd-bench-cpu-'));
const reporter = join(dir, 'report-cpu.mjs');
writeFileSync(
  reporter,
  `import { appendFileSync } from 'node:fs';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  appendFileSync(process.env.CDKD_BENCH_CPU_LOG, ((user + system) / 1000).toFixed(2) + '\\n');
});
`,
);
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

export interface ChildRun {
  args: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/**
 * Runs `node ...args` once and returns its CPU time in ms; throws when it exits non-zero.
 * Asynchronous, so a sandbox or HTTP client in this process keeps running meanwhile.
 */
export async function childCpuMs(run: ChildRun): Promise<number> {
  const log = join(dir, 'cpu.log');
  writeFileSync(log, '');
  const child = spawn(process.execPath, ['--import', pathToFileURL(reporter).href, ...run.args], {
    cwd: run.cwd,
    env: { ...process.env, ...run.env, CDKD_BENCH_CPU_LOG: log },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`node ${run.args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}`);
  return Number(readFileSync(log, 'utf8').trim());
}

/** The median CPU ms of each run, the runs interleaved round by round so load drifts hit all alike. */
export async function medianCpuMs(
  runs: Record<string, ChildRun>,
  rounds: number,
): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(runs)) samples[name]!.push(await childCpuMs(run));
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

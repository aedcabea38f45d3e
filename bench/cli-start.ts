/**
 * CLI start-up benchmark (not a test): CPU time of `cdkd --version` and `cdkd --help`
 * (the built dist/cli/main.js) against a bare `node -e 0`, median of interleaved runs.
 * Target: at most 2.5x. Run: npm run build && npx tsx bench/cli-start.ts [rounds]
 */
import { fileURLToPath } from 'node:url';
import { medianCpuMs } from './child-cpu.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const rounds = Number(process.argv[2] ?? 15);

const cpu = await medianCpuMs(
  {
    'node -e 0': { args: ['-e', '0'] },
    'cdkd --version': { args: [CLI, '--version'] },
    'cdkd --help': { args: [CLI, '--help'] },
    'cdkd deploy --help': { args: [CLI, 'deploy', '--help'] },
  },
  rounds,
);
const base = cpu['node -e 0']!;
console.log(`CLI start-up, CPU time (user+system), median of ${rounds} interleaved runs`);
for (const [name, ms] of Object.entries(cpu)) {
  console.log(`  ${name.padEnd(20)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / base).toFixed(2)}x node -e 0`);
}

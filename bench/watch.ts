/**
 * `cdkd watch` benchmark (not a test): the built CLI watches a CDK app with one Lambda function
 * on a sandbox (latency model off); after its initial deploy, each round changes one line of
 * the function's code and times save → deployed, split at the "Deploying" line into the
 * debounce plus synthesis (the app run by node with aws-cdk-lib) and the deploy part (asset
 * zip and upload, the plan, UpdateFunctionCode, state save). Prints medians; asserts nothing.
 * Run: npm run build && npx tsx bench/watch.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpuMs } from './child-cpu.js';
import { credentialsEnv, startSandboxProcess, stopSandboxProcess } from './deploy-engine.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const ROUNDS = 7;
const lib = (path: string) => JSON.stringify(join(ROOT, 'node_modules', path));

const APP = `
const cdk = require(${lib('aws-cdk-lib')});
const lambda = require(${lib('aws-cdk-lib/aws-lambda')});
const app = new cdk.App();
const stack = new cdk.Stack(app, 'Bench');
new lambda.Function(stack, 'Fn', {
  runtime: lambda.Runtime.NODEJS_20_X,
  handler: 'index.handler',
  code: lambda.Code.fromAsset(require('node:path').join(__dirname, 'lambda')),
});
app.synth();
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const { url, child: sandbox } = await startSandboxProcess();
  const project = mkdtempSync(join(tmpdir(), 'cdkd-bench-watch-'));
  const env = { ...process.env, ...credentialsEnv(), AWS_ENDPOINT_URL: url, CDKD_REQUIRE_APPROVAL: 'never' };
  mkdirSync(join(project, 'lambda'));
  const code = (round: number) =>
    writeFileSync(join(project, 'lambda', 'index.js'), `exports.handler = async () => ${round};\n`);
  code(0);
  writeFileSync(join(project, 'app.cjs'), APP);
  writeFileSync(join(project, 'cdk.json'), JSON.stringify({ app: 'node app.cjs' }));
  const watch = spawn(process.execPath, [CLI, 'watch', '--no-validation'], {
    cwd: project,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Each line of the watch's stderr, stamped with when it arrived.
  const lines: Array<{ at: number; text: string }> = [];
  let partial = '';
  watch.stderr.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop()!;
    for (const text of parts) lines.push({ at: performance.now(), text });
  });
  const next = async (prefix: string, after: number) => {
    for (;;) {
      const found = lines.find((line) => line.at >= after && line.text.startsWith(prefix));
      if (found) return found;
      if (watch.exitCode !== null)
        throw new Error(`cdkd watch exited:\n${lines.map((l) => l.text).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  try {
    await childCpuMs({ args: [CLI, 'bootstrap'], env });
    await next('Deployed Bench', 0);
    const synthesis: number[] = [];
    const deploy: number[] = [];
    const total: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const saved = performance.now();
      code(round);
      const deploying = await next('Deploying Bench', saved);
      const deployed = await next('Deployed Bench', deploying.at);
      synthesis.push(deploying.at - saved);
      deploy.push(deployed.at - deploying.at);
      total.push(deployed.at - saved);
    }
    const whole = median(total);
    console.log(
      `cdkd watch, one-line Lambda code change on the sandbox (no latency model), median of ${ROUNDS}`,
    );
    console.log(`  save → deployed                  ${whole.toFixed(0).padStart(5)} ms`);
    console.log(
      `  debounce (150 ms) + synthesis    ${median(synthesis).toFixed(0).padStart(5)} ms  ${((median(synthesis) / whole) * 100).toFixed(0)}% of it`,
    );
    console.log(
      `  deploy part                      ${median(deploy).toFixed(0).padStart(5)} ms  ${((median(deploy) / whole) * 100).toFixed(0)}% of it (goal: under 1000 ms)`,
    );
  } finally {
    watch.kill('SIGINT');
    await new Promise((resolve) => watch.once('exit', resolve));
    rmSync(project, { recursive: true, force: true });
    await stopSandboxProcess(sandbox);
  }
}

await main();

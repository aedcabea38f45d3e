/**
 * cdkd against another deploy tool (not a test). Set CDKD_BENCH_OTHER_CLI to the other tool's
 * CLI (a .js/.mjs file run with this Node, or an executable); without it the bench says so and
 * exits. Both tools run on one sandbox (a child process) with the latency model of
 * bench/deploy-engine.ts plus 30 ms per SDK call (1 s for IAM roles and functions), on the same cloud assemblies (a wide stack of 200 and the serverless
 * shape), runs alternating ours / theirs, each under its own state bucket and stack names. Per
 * phase (deploy, no-op redeploy, destroy) it prints wall time and ours/theirs, at each tool's
 * default concurrency and at --concurrency 10 for both.
 * The other tool is driven with cdkd's command line (`bootstrap`, `deploy --app DIR`,
 * `destroy --all --yes`, `--state-bucket`, `--concurrency`); CDKD_BENCH_OTHER_ARGS adds
 * arguments to each of its commands. Run: npm run build && npx tsx bench/side-by-side.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStackAssembly } from './assembly-dir.js';
import {
  adminApi,
  CREATE_MS,
  credentialsEnv,
  serverless,
  startSandboxProcess,
  stopSandboxProcess,
  wide,
  type Template,
} from './deploy-engine.js';

/**
 * What the SDK paths pay (Cloud Control pays the per-type model above): 30 ms for each call
 * the shapes make, 1 s where AWS waits for IAM propagation or a function's activation.
 */
const CALL_LATENCY: Record<string, number> = {
  ...Object.fromEntries(
    [
      's3:GetObject',
      's3:PutObject',
      's3:DeleteObject',
      'sqs:CreateQueue',
      'sqs:DeleteQueue',
      'sqs:GetQueueAttributes',
      'sqs:SetQueueAttributes',
      'sns:CreateTopic',
      'sns:DeleteTopic',
      'sns:Subscribe',
      'sns:Unsubscribe',
      'ssm:PutParameter',
      'ssm:DeleteParameter',
      'iam:PutRolePolicy',
      'iam:AttachRolePolicy',
      'iam:DeleteRole',
      'iam:DeleteRolePolicy',
      'iam:DetachRolePolicy',
      'lambda:DeleteFunction',
      'lambda:AddPermission',
      'lambda:CreateEventSourceMapping',
      'dynamodb:CreateTable',
      'dynamodb:DeleteTable',
      'logs:CreateLogGroup',
      'logs:DeleteLogGroup',
      'events:PutRule',
      'events:PutTargets',
      'events:DeleteRule',
    ].map((operation) => [operation, 30]),
  ),
  'iam:CreateRole': 1000,
  'lambda:CreateFunction': 1000,
};

const OURS = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ROUNDS = 2;
const EQUAL_CONCURRENCY = 10;

interface Tool {
  name: 'ours' | 'theirs';
  command: string[];
  extra: string[];
  bucket: string;
}

const PHASES = ['deploy', 'no-op', 'destroy'] as const;
type PhaseName = (typeof PHASES)[number];

function toolCommand(cli: string): string[] {
  return /\.[cm]?js$/.test(cli) ? [process.execPath, cli] : [cli];
}

/** Runs one CLI command to completion; its wall time in ms. Throws on a non-zero exit. */
async function timedRun(tool: Tool, args: string[], env: Record<string, string>): Promise<number> {
  const [file, ...head] = tool.command;
  const started = performance.now();
  const child = spawn(file!, [...head, ...args, '--state-bucket', tool.bucket, ...tool.extra], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${tool.name}: ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const other = process.env.CDKD_BENCH_OTHER_CLI;
  if (!other) {
    console.log("Side by side: skipped (set CDKD_BENCH_OTHER_CLI to the other tool's CLI to compare).");
    return;
  }
  const tools: Tool[] = [
    { name: 'ours', command: toolCommand(OURS), extra: [], bucket: 'bench-ours-state' },
    {
      name: 'theirs',
      command: toolCommand(other),
      extra: (process.env.CDKD_BENCH_OTHER_ARGS ?? '').split(' ').filter(Boolean),
      bucket: 'bench-theirs-state',
    },
  ];
  const { url, child } = await startSandboxProcess();
  const root = mkdtempSync(join(tmpdir(), 'cdkd-bench-side-'));
  try {
    const env = { ...credentialsEnv(), AWS_ENDPOINT_URL: url };
    await adminApi(url)('PUT', 'latency', {
      types: Object.fromEntries(
        Object.entries(CREATE_MS).map(([type, ms]) => [type, { create: ms, update: ms, delete: 0 }]),
      ),
      operations: CALL_LATENCY,
    });
    for (const tool of tools) await timedRun(tool, ['bootstrap'], env);
    const shapes: Array<[string, Template]> = [
      ['wide200', wide(200)],
      ['serverless', serverless(9, { targetsPerRule: 5 })],
    ];
    console.log(
      `Side by side on one sandbox (latency model of bench/deploy-engine.ts), ${ROUNDS} alternating rounds, mean wall s`,
    );
    console.log(
      `${'shape'.padEnd(12)}${'concurrency'.padEnd(13)}${'phase'.padEnd(9)}${'ours'.padStart(8)}${'theirs'.padStart(8)}  theirs/ours`,
    );
    for (const [shape, template] of shapes) {
      for (const concurrency of [undefined, EQUAL_CONCURRENCY]) {
        const totals: Record<string, Record<PhaseName, number>> = {
          ours: { deploy: 0, 'no-op': 0, destroy: 0 },
          theirs: { deploy: 0, 'no-op': 0, destroy: 0 },
        };
        const tuning = concurrency === undefined ? [] : ['--concurrency', String(concurrency)];
        for (let round = 0; round < ROUNDS; round++) {
          for (const tool of round % 2 === 0 ? tools : [...tools].reverse()) {
            const app = writeStackAssembly(root, `Side${shape}${tool.name}${round}`, template);
            const times = totals[tool.name]!;
            times.deploy += await timedRun(tool, ['deploy', '--app', app, ...tuning], env);
            times['no-op'] += await timedRun(tool, ['deploy', '--app', app, ...tuning], env);
            times.destroy += await timedRun(
              tool,
              ['destroy', '--app', app, '--all', '--yes', ...tuning],
              env,
            );
          }
        }
        for (const phase of PHASES) {
          const ours = totals.ours![phase] / ROUNDS / 1000;
          const theirs = totals.theirs![phase] / ROUNDS / 1000;
          console.log(
            `${shape.padEnd(12)}${(concurrency === undefined ? 'default' : String(concurrency)).padEnd(13)}${phase.padEnd(9)}${ours.toFixed(2).padStart(8)}${theirs.toFixed(2).padStart(8)}  ${(theirs / ours).toFixed(2)}x`,
          );
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    await stopSandboxProcess(child);
  }
}

await main();

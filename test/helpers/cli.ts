import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (npm test builds it first) as a user would, with no TTY. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts a cdkd command without waiting, so a test can signal it once `marker` shows on
 * stderr (`times` times: that many operations under way).
 */
export function startCli(
  args: string[],
  marker: string,
  options: { env?: Record<string, string>; times?: number; cwd?: string } = {},
) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let onStarted: () => void = () => undefined;
  /** Resolves once `marker` shows: a signal then lands mid-run, whatever the machine's speed. */
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (stderr.split(marker).length > (options.times ?? 1)) onStarted();
  });
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, done, creating: started, stderr: () => stderr };
}

/**
 * Synthesizes the CDK app in `appDir` with `cdkd synth` into a new work directory and
 * bootstraps the sandbox, as a user's first two commands: returns the work directory (the
 * caller removes it) and the cloud assembly in it.
 */
export async function synthesizeAndBootstrap(
  appDir: string,
  env: Record<string, string>,
  prefix: string,
): Promise<{ work: string; assembly: string }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const assembly = join(work, 'cdk.out');
  const synth = await runCli(['synth', '--no-validation', '-q', '-o', assembly], { env, cwd: appDir });
  if (synth.code !== 0) throw new Error(`cdkd synth failed in ${appDir}: ${synth.stderr}`);
  const bootstrap = await runCli(['bootstrap'], { env });
  if (bootstrap.code !== 0) throw new Error(`cdkd bootstrap failed: ${bootstrap.stderr}`);
  return { work, assembly };
}

import { spawn } from 'node:child_process';
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

/** Starts a cdkd command without waiting, so a test can signal it once `marker` shows on stderr. */
export function startCli(args: string[], marker: string, options: { env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let onStarted: () => void = () => undefined;
  /** Resolves once `marker` shows: a signal then lands mid-run, whatever the machine's speed. */
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (stderr.includes(marker)) onStarted();
  });
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, done, creating: started, stderr: () => stderr };
}

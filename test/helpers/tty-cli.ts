import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, type CliResult } from './cli.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`), typing `answer` and Enter
 * once `prompt` shows: stdin and stderr are a TTY, as for a person at a terminal. The pty
 * merges stdout and stderr into `stdout`.
 */
export function runCliOnTty(
  args: string[],
  options: { env: Record<string, string>; prompt: string; answer: string },
): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answered = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!answered && stdout.includes(options.prompt)) {
        answered = true;
        child.stdin.write(`${options.answer}\r`);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

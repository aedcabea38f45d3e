import { spawn } from 'node:child_process';
import { CdkdError } from '../errors.js';

export const STDERR_TAIL_LINES = 20;
/**
 * A longer line is cut in the error: the output streamed above holds it whole, and a failing
 * app's output often starts with a minified source line of thousands of characters.
 */
export const TAIL_LINE_CHARS = 200;
/** Enough bytes for 20 long lines; older output is dropped as it streams. */
const TAIL_BYTES = 64 * 1024;

export interface RunAppOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Receives the app's stdout and stderr as they arrive (the CLI forwards them to stderr). */
  onOutput: (chunk: string) => void;
}

/** Runs the app command through the shell; a failure is SYNTH_FAILED with the tail of its stderr. */
export function runApp(options: RunAppOptions): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(options.command, {
      cwd: options.cwd,
      env: options.env,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tails = { stdout: '', stderr: '' };
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].setEncoding('utf8');
      child[stream].on('data', (chunk: string) => {
        options.onOutput(chunk);
        tails[stream] = (tails[stream] + chunk).slice(-TAIL_BYTES);
      });
    }
    child.on('error', (cause) => {
      reject(
        new CdkdError('SYNTH_FAILED', `Could not start the app "${options.command}": ${cause.message}`, {
          hint: 'Check the app command (--app, CDKD_APP or cdk.json "app").',
          cause,
        }),
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolvePromise();
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = lastLines(tails.stderr) || lastLines(tails.stdout);
      const output = tail ? `:\n${tail}` : ' without output.';
      reject(
        new CdkdError('SYNTH_FAILED', `The app "${options.command}" ${how}${output}`, {
          hint: 'Fix the error the app reported above, then run again.',
        }),
      );
    });
  });
}

function lastLines(text: string): string {
  const lines = text
    .replace(/\s+$/, '')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines
    .slice(-STDERR_TAIL_LINES)
    .map((line) => `  ${cut(line)}`)
    .join('\n');
}

function cut(line: string): string {
  if (line.length <= TAIL_LINE_CHARS) return line;
  return `${line.slice(0, TAIL_LINE_CHARS)}… (${line.length - TAIL_LINE_CHARS} more characters, in the output above)`;
}

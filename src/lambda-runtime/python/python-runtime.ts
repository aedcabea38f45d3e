import { execFileSync } from 'node:child_process';
import type { Launch, RuntimeLayout } from '../launch.js';
import { PYTHON_BOOTSTRAP } from './bootstrap-source.js';

export const PYTHON_RUNTIME = /^python3\.\d+$/;

let interpreter: string | null | undefined;

/**
 * The machine's python3 as an absolute path (the function's environment has no HOME or
 * shims to find it), or null when there is none. Looked up once.
 */
export function pythonInterpreter(): string | null {
  if (interpreter === undefined) {
    try {
      interpreter =
        execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 10_000,
        }).trim() || null;
    } catch {
      interpreter = null;
    }
  }
  return interpreter;
}

export function pythonLaunch(layout: RuntimeLayout, executable: string): Launch {
  return {
    command: executable,
    args: ['-u', '-c', PYTHON_BOOTSTRAP],
    env: { CDKD_LAYER_PATHS: layout.layers.join(':'), PYTHONDONTWRITEBYTECODE: '1' },
  };
}

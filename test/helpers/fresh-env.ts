import { vi } from 'vitest';

/**
 * Setup file (vitest.config.ts): runs before every test file. Test files share a worker
 * process (`isolate: false`, so the AWS SDK and the sources load once per worker, not once
 * per file), so each file starts as it would in a process of its own: with the environment
 * the worker started with (what an earlier file set, such as the sandbox endpoint and
 * credentials useSandbox exports, or deleted, is put back), real timers and no stubbed
 * globals.
 */
const WORKER_ENV_KEY = Symbol.for('cdkd.test.workerEnv');
const holder = globalThis as { [WORKER_ENV_KEY]?: Readonly<Record<string, string | undefined>> };
const workerEnv = (holder[WORKER_ENV_KEY] ??= { ...process.env });

// Vitest's own (VITEST_WORKER_ID and the like) are vitest's to set per file.
const ours = (name: string): boolean => !name.startsWith('VITEST');
for (const name of Object.keys(process.env)) {
  if (ours(name) && !(name in workerEnv)) delete process.env[name];
}
for (const [name, value] of Object.entries(workerEnv)) {
  if (ours(name) && process.env[name] !== value) process.env[name] = value;
}
process.exitCode = undefined;
vi.useRealTimers();
vi.unstubAllGlobals();

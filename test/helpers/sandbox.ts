import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv } from './sandbox-env.js';

export { sandboxEnv };

/**
 * Starts a sandbox on an ephemeral port for the test file and points this
 * process's SDK clients at it (each vitest file runs in its own worker).
 */
export function useSandbox(options: { dataDir?: string; enforceIam?: boolean } = {}): {
  readonly current: Sandbox;
} {
  const holder: { current?: Sandbox } = {};
  beforeAll(async () => {
    holder.current = await startSandbox({ port: 0, ...options });
    Object.assign(process.env, sandboxEnv(holder.current.url));
    delete process.env.CDKD_STATE_BUCKET;
    delete process.env.AWS_PROFILE;
  });
  afterAll(async () => {
    await holder.current?.stop();
  });
  return {
    get current() {
      if (!holder.current) throw new Error('sandbox not started');
      return holder.current;
    },
  };
}

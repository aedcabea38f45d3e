import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

/** Environment that points the real AWS SDK at a sandbox, with fake credentials. */
export function sandboxEnv(url: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDSANDBOX',
    AWS_SECRET_ACCESS_KEY: 'sandbox-secret',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/**
 * Starts a sandbox on an ephemeral port for the test file and points this
 * process's SDK clients at it (each vitest file runs in its own worker).
 */
export function useSandbox(options: { dataDir?: string } = {}): { readonly current: Sandbox } {
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

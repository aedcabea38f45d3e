import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
}

function collect(stream: NodeJS.ReadableStream): { text: () => string } {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { text: () => text };
}

/** Resolves with the endpoint once the command prints it. */
function endpointFrom(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /listening on (http:\/\/[^\s]+)/.exec(seen)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) =>
      reject(new Error(`cdkd sandbox exited (${code}) before printing its endpoint`)),
    );
  });
}

describe('cdkd sandbox command', () => {
  it('serves on the port it prints, hints AWS_ENDPOINT_URL and where the local URLs of APIs are listed, and exits 0 on SIGTERM', async () => {
    const child = runCli(['sandbox', '--port', '0', '--account-id', '111122223333']);
    const stdout = collect(child.stdout);
    const url = await endpointFrom(child);
    expect(stdout.text()).toContain(`export AWS_ENDPOINT_URL=${url}`);
    expect(stdout.text()).toContain(`local URLs: curl ${url}/_sandbox/endpoints`);
    expect(await (await fetch(`${url}/_sandbox/endpoints`)).json()).toEqual({ endpoints: [] });

    const health = await fetch(`${url}/_sandbox/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', accountId: '111122223333' });
    expect(stdout.text()).toContain('IAM: every call allowed (use --enforce-iam to check assumed roles)');
    expect(await (await fetch(`${url}/_sandbox/iam`)).json()).toEqual({ enforce: false });

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('--enforce-iam starts it checking assumed-role calls', async () => {
    const child = runCli(['sandbox', '--port', '0', '--enforce-iam']);
    const stdout = collect(child.stdout);
    const url = await endpointFrom(child);
    try {
      expect(stdout.text()).toContain("IAM: assumed-role calls checked against the role's policies");
      expect(await (await fetch(`${url}/_sandbox/iam`)).json()).toEqual({ enforce: true });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('refuses a port in use with SANDBOX_PORT_IN_USE and exit code 1', async () => {
    const holder = await startSandbox({ port: 0 });
    try {
      const child = runCli(['sandbox', '--port', String(holder.port)]);
      const stderr = collect(child.stderr);
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(stderr.text()).toContain('Error [SANDBOX_PORT_IN_USE]');
      expect(stderr.text()).toContain('--port');
    } finally {
      await holder.stop();
    }
  });
});

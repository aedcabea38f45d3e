import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

// The README's main job exactly as a new user runs it: `npm run demo` starts a sandbox whose
// data dir sits inside this repository (whose package.json says "type": "module"), deploys
// the example app with its custom resource, and `-- --destroy` takes it all down again.
const dataDir = join(REPO_ROOT, `.cdkd-sandbox-test-${process.pid}`);
let port = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function demo(args: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts/demo.mjs'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, CDKD_DEMO_PORT: String(port), CDKD_DEMO_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

afterAll(async () => {
  await demo(['--stop']);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('deploys the example app, prints the custom resource output, redeploys as a no-op, and destroys it', async () => {
    port = await freePort();
    const first = await demo();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/CdkdDemoConsumer\.Greeting = hello from a custom resource/);
    const again = await demo();
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('CdkdDemoConsumer (no changes)');
    const destroyed = await demo(['--destroy']);
    expect(destroyed.code, destroyed.output).toBe(0);
    expect(destroyed.output).toContain('Stopped the sandbox');
  }, 600_000);
});

// `npm run demo`: start the local sandbox in the background (once), bootstrap
// cdkd against it and show what cdkd has recorded. `npm run demo -- --stop` stops it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
const dataDir = join(root, '.cdkd-sandbox');
const pidFile = join(dataDir, 'sandbox.pid');
const port = Number(process.env.CDKD_DEMO_PORT ?? 4566);
const endpoint = `http://127.0.0.1:${port}`;

// The demo only ever talks to the sandbox: fixed fake credentials, no profile.
const env = {
  ...process.env,
  AWS_ENDPOINT_URL: endpoint,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDSANDBOX',
  AWS_SECRET_ACCESS_KEY: 'sandbox-secret',
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
delete env.AWS_PROFILE;
delete env.AWS_SESSION_TOKEN;
delete env.CDKD_STATE_BUCKET;

async function healthy() {
  try {
    const response = await fetch(`${endpoint}/_sandbox/health`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function startSandbox() {
  if (await healthy()) {
    console.log(`Sandbox already running at ${endpoint}.`);
    return;
  }
  mkdirSync(dataDir, { recursive: true });
  const log = openSync(join(dataDir, 'sandbox.log'), 'a');
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', String(port), '--data-dir', dataDir], {
    detached: true,
    stdio: ['ignore', log, log],
    env,
  });
  child.unref();
  writeFileSync(pidFile, String(child.pid));
  for (let i = 0; i < 100; i += 1) {
    if (await healthy()) {
      console.log(`Sandbox started at ${endpoint} (pid ${child.pid}, data in ${dataDir}).`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The sandbox did not answer at ${endpoint}; see ${join(dataDir, 'sandbox.log')}.`);
}

function stopSandbox() {
  if (!existsSync(pidFile)) {
    console.log('No demo sandbox is running.');
    return;
  }
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 'SIGTERM');
    console.log(`Stopped the sandbox (pid ${pid}).`);
  } catch {
    console.log(`The sandbox (pid ${pid}) was not running.`);
  }
  rmSync(pidFile, { force: true });
}

function cdkd(...args) {
  console.log(`\n$ cdkd ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [cli, ...args], { env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.includes('--stop')) {
  stopSandbox();
} else {
  try {
    await startSandbox();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  cdkd('bootstrap');
  cdkd('state', 'list');
  console.log(`
The sandbox keeps running. To use cdkd against it yourself:
  export AWS_ENDPOINT_URL=${endpoint} AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x
Stop it with: npm run demo -- --stop`);
}

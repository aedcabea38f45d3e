// `npm run demo`: start the local sandbox in the background (once), bootstrap
// cdkd against it, deploy the example CDK app and print its outputs. Running it
// again is a no-op deploy. `npm run demo -- --destroy` destroys the app and
// stops the sandbox; `npm run demo -- --stop` only stops the sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
// CDKD_DEMO_DATA_DIR and CDKD_DEMO_PORT let a test run the demo beside a user's own.
const dataDir = process.env.CDKD_DEMO_DATA_DIR ?? join(root, '.cdkd-sandbox');
const exampleApp = join(root, 'examples/app');
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

function cdkd(args, cwd = root) {
  console.log(`\n$ cdkd ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [cli, ...args], { env, stdio: 'inherit', cwd });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function ensureSandbox() {
  try {
    await startSandbox();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

if (process.argv.includes('--stop')) {
  stopSandbox();
} else if (process.argv.includes('--destroy')) {
  await ensureSandbox();
  cdkd(['destroy', '--all', '--yes'], exampleApp);
  stopSandbox();
} else {
  await ensureSandbox();
  cdkd(['bootstrap']);
  // The example app's roles widen permissions; the demo deploys them to the local sandbox unasked.
  cdkd(['deploy', '--all', '--require-approval', 'never'], exampleApp);
  console.log(`
Deployed the example app (examples/app) to the sandbox at ${endpoint}; it keeps running.
Run \`npm run demo\` again for a no-op deploy; \`npm run demo -- --destroy\` to destroy the
app and stop the sandbox. To use cdkd against the sandbox yourself:
  export AWS_ENDPOINT_URL=${endpoint} AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x
  cd examples/app && node ../../dist/cli/main.js diff --all`);
}

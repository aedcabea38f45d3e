import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { REPO_ROOT, runCli, startCli } from '../helpers/cli.js';
import { sandboxClient } from '../helpers/handler-apps.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// `cdkd watch` on a CDK app with a Lambda function, in a project directory of its own: one
// watch (with --logs) lives through the whole file, each test editing the project and
// reading what the watch printed since; the last one stops it with SIGINT mid-deploy.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const lib = (path: string) => JSON.stringify(join(REPO_ROOT, 'node_modules', path));
const STACK = 'Watched';
const FUNCTION = 'watched-fn';
const BUCKET = 'cdkd-state-000000000000';

const APP = `
const cdk = require(${lib('aws-cdk-lib')});
const lambda = require(${lib('aws-cdk-lib/aws-lambda')});
const app = new cdk.App();
const stack = new cdk.Stack(app, '${STACK}');
new lambda.Function(stack, 'Fn', {
  functionName: '${FUNCTION}',
  runtime: lambda.Runtime.NODEJS_20_X,
  handler: 'index.handler',
  code: lambda.Code.fromAsset(require('node:path').join(__dirname, 'lambda')),
});
app.synth();
`;

const handler = (answer: string) =>
  `exports.handler = async () => { console.log('answering ${answer}'); return '${answer}'; };\n`;

let project: string;
let watch: ReturnType<typeof startCli>;

const write = (path: string, text: string) => writeFileSync(join(project, path), text);
const count = (text: string) => watch.stderr().split(text).length - 1;
const deploys = () => count('Deploying Watched');
const deployed = () => count('Deployed Watched');

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${watch.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function invoke(): Promise<string> {
  const lambda = sandboxClient(sandbox.current.url, LambdaClient);
  const answer = await lambda.send(new InvokeCommand({ FunctionName: FUNCTION }));
  return JSON.parse(new TextDecoder().decode(answer.Payload)) as string;
}

async function faults(method: 'POST' | 'DELETE', body?: object): Promise<void> {
  await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

async function calls(key: string): Promise<number> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/calls`);
  const { calls } = (await response.json()) as { calls: Record<string, { count: number }> };
  return calls[key]?.count ?? 0;
}

/** Holds every UpdateFunctionCode for `ms`, so a deploy is still under way while the test acts. */
const slowCodeUpdates = (ms: number) =>
  faults('POST', { service: 'lambda', operation: 'UpdateFunctionCode', latencyMs: ms, every: true });

async function stateKeys(): Promise<string[]> {
  const s3 = new S3Client({ endpoint: sandbox.current.url, region: 'us-east-1', forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `cdkd/${STACK}/` }));
  return (listed.Contents ?? []).map((object) => object.Key!.split('/').at(-1)!);
}

beforeAll(async () => {
  project = tempDir();
  mkdirSync(join(project, 'lambda'));
  write('app.cjs', APP);
  write('lambda/index.js', handler('v1'));
  write('README.md', '# watched\n');
  write('cdk.json', JSON.stringify({ app: 'node app.cjs' }));
  const bootstrap = await runCli(['bootstrap'], { env: env() });
  expect(bootstrap.code, bootstrap.stderr).toBe(0);
  watch = startCli(['watch', '--logs', '--no-validation'], 'Deployed Watched', {
    env: env(),
    cwd: project,
  });
}, 120_000);

afterAll(async () => {
  await faults('DELETE');
  if (watch.child.exitCode === null) {
    watch.child.kill('SIGKILL');
    await watch.done;
  }
});

describe('cdkd watch', () => {
  it('deploys at start, then a code change redeploys the stack with the new code', async () => {
    await watch.creating;
    expect(await invoke()).toBe('v1');
    write('lambda/index.js', handler('v2'));
    await until(() => deployed() === 2, 'the redeploy');
    expect(deploys()).toBe(2);
    expect(await invoke()).toBe('v2');
  }, 180_000);

  it('--logs prints the line the function writes, prefixed with the function', async () => {
    await invoke();
    await until(() => /\[watched-fn\].*answering v2/.test(watch.stderr()), 'the log line', 30_000);
    // Each line once, though every read of the log group returns the lines at its start again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const lines = watch
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('[watched-fn]'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length - new Set(lines).size).toBe(0);
  }, 60_000);

  it('an excluded file starts nothing; a watched one that changes no template synthesizes and deploys nothing', async () => {
    const before = watch.stderr().length;
    write('README.md', '# watched, edited\n');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(watch.stderr().slice(before)).not.toMatch(/Deploying|No stack changed/);
    write('notes.txt', 'not part of any template\n');
    await until(() => watch.stderr().slice(before).includes('No stack changed'), 'the synthesis');
    expect(deploys()).toBe(2);
  }, 60_000);

  it('two edits during a deploy make one more deploy, not two, of the last edit', async () => {
    await slowCodeUpdates(2_000);
    const updates = await calls('lambda:UpdateFunctionCode');
    write('lambda/index.js', handler('v3'));
    await until(async () => (await calls('lambda:UpdateFunctionCode')) > updates, 'the deploy of v3');
    write('lambda/index.js', handler('v4'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    write('lambda/index.js', handler('v5'));
    await until(() => deployed() === 4, 'the coalesced deploy');
    await faults('DELETE');
    // Long enough for a third deploy to have started, were the edits not coalesced.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(deploys()).toBe(4);
    expect(await invoke()).toBe('v5');
  }, 180_000);

  it('a syntax error in the app is shown and the watch goes on; fixing it deploys', async () => {
    const before = watch.stderr().length;
    write('app.cjs', `${APP}\nconst broken = ;\n`);
    await until(() => watch.stderr().slice(before).includes('Still watching'), 'the synthesis error');
    expect(watch.stderr().slice(before)).toContain('SyntaxError');
    write('lambda/index.js', handler('v6'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(deploys()).toBe(4);
    write('app.cjs', APP);
    await until(() => deployed() === 5, 'the deploy after the fix');
    expect(await invoke()).toBe('v6');
  }, 180_000);

  it('a deploy that fails rolls back and the watch goes on; the next change deploys that stack again', async () => {
    await faults('POST', {
      service: 'lambda',
      operation: 'UpdateFunctionCode',
      errorCode: 'InvalidParameterValueException',
      httpStatus: 400,
      message: 'refused by the test',
      count: 1,
    });
    const before = watch.stderr().length;
    write('lambda/index.js', handler('v7'));
    await until(
      () => deploys() === 6 && watch.stderr().slice(before).includes('refused by the test'),
      'the failure',
    );
    await until(() => /Rolled back|rolled back/.test(watch.stderr().slice(before)), 'the rollback');
    expect(deployed()).toBe(5);
    expect(await invoke()).toBe('v6');
    expect(await stateKeys()).not.toContain('lock.json');
    // No template changes with this file, but the stack's last deploy failed: it deploys again.
    write('notes.txt', 'touched again\n');
    await until(() => deployed() === 6, 'the deploy after the failure');
    expect(await invoke()).toBe('v7');
  }, 120_000);

  it('SIGINT mid-deploy ends the deploy as cdkd deploy does, releases the lock and exits 130', async () => {
    await slowCodeUpdates(2_000);
    const updates = await calls('lambda:UpdateFunctionCode');
    write('lambda/index.js', handler('v8'));
    await until(async () => (await calls('lambda:UpdateFunctionCode')) > updates, 'the deploy of v8');
    expect(await stateKeys()).toContain('lock.json');
    watch.child.kill('SIGINT');
    expect(await watch.done).toBe(130);
    await faults('DELETE');
    expect(watch.stderr()).toContain('SIGINT received: finishing the operations in flight');
    // The one operation in flight finished: the stack is deployed, nothing pending.
    expect(await stateKeys()).not.toContain('lock.json');
    expect(await stateKeys()).not.toContain('rollback-journal.json');
    expect(await invoke()).toBe('v8');
  }, 120_000);
});

describe('cdkd watch when idle', () => {
  it('exits 130 at once on SIGINT', async () => {
    const idle = startCli(['watch', '--no-validation'], 'Deployed Watched', { env: env(), cwd: project });
    await idle.creating;
    // Its start deploys (nothing changed since v8: the deploy does nothing), then it waits.
    const started = Date.now();
    idle.child.kill('SIGINT');
    expect(await idle.done).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(idle.stderr()).toContain('Stopped watching.');
  }, 120_000);
});

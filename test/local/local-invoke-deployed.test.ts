import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { AccountRootPrincipal, CompositePrincipal, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pythonInterpreter } from '../../src/lambda-runtime/python/python-runtime.js';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// `cdkd local invoke` of a deployed stack (on the sandbox): the deployed function's resolved
// environment, its role's credentials (or the caller's, with a warning, when the role does
// not trust the caller), and its layers from the app's LayerVersion assets.
const sandbox = useSandbox();
const python = pythonInterpreter() !== null;
let app: string;

const env = () => sandboxEnv(sandbox.current.url);

beforeAll(() => {
  const work = tempDir();
  mkdirSync(join(work, 'code'));
  writeFileSync(
    join(work, 'code', 'index.js'),
    [
      "const greet = require('greeter');",
      'exports.handler = async () => ({ queue: process.env.QUEUE_URL || null, greeting: process.env.GREETING,',
      '  greet: greet(), key: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY,',
      '  token: process.env.AWS_SESSION_TOKEN || null });',
    ].join('\n'),
  );
  mkdirSync(join(work, 'layer', 'nodejs', 'node_modules', 'greeter'), { recursive: true });
  writeFileSync(
    join(work, 'layer', 'nodejs', 'node_modules', 'greeter', 'index.js'),
    "module.exports = () => 'hello from the layer';",
  );
  mkdirSync(join(work, 'pylayer', 'python'), { recursive: true });
  writeFileSync(
    join(work, 'pylayer', 'python', 'greeter.py'),
    "def greet():\n    return 'hello from the python layer'\n",
  );
  app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Dep');
    const queue = new Queue(stack, 'Queue');
    const layer = new LayerVersion(stack, 'Greeter', { code: Code.fromAsset(join(work, 'layer')) });
    const role = new Role(stack, 'Trusting', {
      assumedBy: new CompositePrincipal(
        new ServicePrincipal('lambda.amazonaws.com'),
        new AccountRootPrincipal(),
      ),
    });
    const common = {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromAsset(join(work, 'code')),
      layers: [layer],
      environment: { GREETING: 'hi', QUEUE_URL: queue.queueUrl },
    };
    new Function(stack, 'Own', { ...common, role });
    new Function(stack, 'Plain', common);
    new Function(stack, 'Py', {
      runtime: Runtime.PYTHON_3_12,
      handler: 'index.handler',
      code: Code.fromInline('import greeter\ndef handler(event, context):\n    return greeter.greet()\n'),
      layers: [new LayerVersion(stack, 'PyGreeter', { code: Code.fromAsset(join(work, 'pylayer')) })],
    });
  });
});

async function invoke(target: string, ...flags: string[]) {
  const result = await runCli(['local', 'invoke', target, '-a', app, ...flags], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  return { answer: JSON.parse(result.stdout) as Record<string, unknown>, stderr: result.stderr };
}

describe('cdkd local invoke with layers', () => {
  it('finds a Node.js layer module on NODE_PATH; before any deploy, the template environment', async () => {
    const { answer, stderr } = await invoke('Dep/Own');
    expect(answer).toMatchObject({
      greet: 'hello from the layer',
      greeting: 'hi',
      queue: null,
      key: 'AKIDSANDBOX',
    });
    expect(stderr).toContain('is not deployed');
  });

  it.skipIf(!python)(`imports a Python layer's module${python ? '' : ' (skipped: no python3)'}`, async () => {
    const { answer } = await invoke('Dep/Py', '--no-deployed');
    expect(answer).toBe('hello from the python layer');
  });
});

describe('cdkd local invoke of a deployed stack', () => {
  beforeAll(async () => {
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    const deployed = await runCli(['deploy', '-a', app], { env: env() });
    expect(deployed.code, deployed.stderr).toBe(0);
  }, 240_000);

  it("runs with the deployed function's environment and as its role", async () => {
    const { answer, stderr } = await invoke('Dep/Own');
    expect(answer.queue).toEqual(expect.stringMatching(/^https?:\/\/.*Queue/));
    expect(answer.key).not.toBe('AKIDSANDBOX');
    expect(answer.token).toEqual(expect.any(String));
    expect(stderr).toContain('running as its role');
    // What the sandbox's AssumeRole answered (its keys select the role's account; the secret
    // and session token are fresh), not the caller's own.
    expect(answer.secret).not.toBe('sandbox-secret');
  });

  it("keeps the caller's credentials, with a warning, when the role does not trust the caller", async () => {
    const { answer, stderr } = await invoke('Dep/Plain');
    expect(answer.queue).toEqual(expect.stringMatching(/^https?:\/\//));
    expect(answer.key).toBe('AKIDSANDBOX');
    expect(stderr).toMatch(/warning: Function .*: its role .* cannot be assumed/);
  });

  it("--no-deployed uses the template's environment and the caller's credentials", async () => {
    const { answer } = await invoke('Dep/Own', '--no-deployed');
    expect(answer).toMatchObject({ queue: null, key: 'AKIDSANDBOX', greeting: 'hi' });
  });
});

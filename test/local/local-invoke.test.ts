import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { pythonInterpreter } from '../../src/lambda-runtime/python/python-runtime.js';
import { tempDir } from '../assembly/helpers.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

// `cdkd local invoke` runs the built CLI against a synthesized app; no sandbox, no container engine.
const CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');
const python = pythonInterpreter() !== null;
let app: string;
let work: string;

beforeAll(() => {
  work = tempDir();
  const code = join(work, 'code');
  mkdirSync(join(code, 'lib'), { recursive: true });
  writeFileSync(
    join(code, 'lib', 'main.js'),
    [
      'exports.handler = async (event, context) => {',
      "  console.log('got', JSON.stringify(event));",
      '  return { greeting: process.env.GREETING, queue: process.env.QUEUE_URL ?? null, name: event.name,',
      '    fn: context.functionName, root: process.env.LAMBDA_TASK_ROOT };',
      '};',
    ].join('\n'),
  );
  app = synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'Local');
    const queue = new Queue(stack, 'Queue');
    new Function(stack, 'FromAsset', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'lib/main.handler',
      code: Code.fromAsset(code),
      environment: { GREETING: 'hello', QUEUE_URL: queue.queueUrl },
    });
    inlineFunction(
      stack,
      'Inline',
      "exports.handler = async () => { console.log('inline ran'); return 42; };",
    );
    inlineFunction(stack, 'Fails', "exports.handler = async () => { throw new TypeError('bad input'); };");
    new Function(stack, 'Python', {
      runtime: Runtime.PYTHON_3_12,
      handler: 'index.handler',
      code: Code.fromInline(
        "def handler(event, context):\n    print('python ran')\n    return {'doubled': event['n'] * 2}\n",
      ),
    });
    new Function(stack, 'Ruby', {
      runtime: Runtime.RUBY_3_3,
      handler: 'main.handler',
      code: Code.fromAsset(code),
    });
  });
});

describe('cdkd local invoke', () => {
  it('runs an asset function with the event file and the template environment, its logs to stderr', async () => {
    const event = join(work, 'event.json');
    writeFileSync(event, JSON.stringify({ name: 'Ada' }));
    const result = await runCli(['local', 'invoke', 'Local/FromAsset', '-a', app, '--event', event]);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(answer).toMatchObject({
      greeting: 'hello',
      queue: null,
      name: 'Ada',
      fn: expect.stringContaining('FromAsset'),
    });
    // The code runs from the staged asset in the cloud assembly.
    expect(answer.root).toEqual(expect.stringContaining(app));
    expect(result.stderr).toContain('got {"name":"Ada"}');
    // QUEUE_URL references the queue, which only the deployed stack resolves.
    expect(result.stderr).toContain('QUEUE_URL');
  });

  it('runs an inline handler by construct path, with an empty event when stdin holds none', async () => {
    const result = await runCli(['local', 'invoke', 'Local/Inline', '-a', app]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('42');
    expect(result.stderr).toContain('inline ran');
  });

  it('reads the event from stdin', async () => {
    const child = spawn(process.execPath, [CLI, 'local', 'invoke', 'Local/FromAsset', '-a', app], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stdin.end(JSON.stringify({ name: 'from stdin' }));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ name: 'from stdin' });
  });

  it.skipIf(!python)(
    `runs an inline Python handler on the machine's python3${python ? '' : ' (skipped: no python3 on the PATH)'}`,
    async () => {
      const event = join(work, 'n.json');
      writeFileSync(event, '{"n": 21}');
      const result = await runCli(['local', 'invoke', 'Local/Python', '-a', app, '--event', event]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ doubled: 42 });
      expect(result.stderr).toContain('python ran');
    },
  );

  it("prints a handler's error as Lambda reports it and exits 1", async () => {
    const result = await runCli(['local', 'invoke', 'Local/Fails', '-a', app]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ errorType: 'TypeError', errorMessage: 'bad input' });
  });

  it.each([
    ['Local/Nope', 'LOCAL_FUNCTION_NOT_FOUND', 'Local/FromAsset'],
    ['Elsewhere/Fn', 'LOCAL_FUNCTION_NOT_FOUND', 'Local'],
    ['Local/Ruby', 'LOCAL_RUNTIME_UNSUPPORTED', 'ruby3.3'],
  ])('refuses %s with %s', async (target, code, named) => {
    const result = await runCli(['local', 'invoke', target, '-a', app]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(code);
    expect(result.stderr).toContain(named);
  });

  it('refuses an event that is not JSON', async () => {
    const event = join(work, 'bad.json');
    writeFileSync(event, '{not json');
    const result = await runCli(['local', 'invoke', 'Local/Inline', '-a', app, '--event', event]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOCAL_EVENT_INVALID');
  });
});

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateRepositoryCommand, type ECRClient } from '@aws-sdk/client-ecr';
import {
  CreateFunctionCommand,
  InvokeCommand,
  type CreateFunctionCommandInput,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { failure, lambdaClient } from './helpers.js';
import { pushImage, scratchImage, startRegistrySandbox } from './registry-helpers.js';
import { podmanOnRunc, podmanUnavailable, settleContainers } from '../helpers/container-engine.js';

// Image functions run for real with podman (its own vfs storage, runc, no default ulimits: what
// runs containers on these machines) named by CDK_DOCKER through a wrapper script
// (test/helpers/container-engine.ts). The
// function's image is FROM scratch: a static C runtime (fixtures/runtime-loop.c) speaking
// Lambda's runtime API. Where podman, runc or gcc is missing, or podman cannot run a container
// here, the tests that run containers are skipped and say why; the no-engine tests always run.

const REGISTRY = '000000000000.dkr.ecr.us-east-1.amazonaws.com';
const work = mkdtempSync(join(tmpdir(), 'cdkd-image-invoke-'));
/** Why containers cannot run here, or undefined when the probe ran one. */
function cannotRun(): string | undefined {
  const unavailable = podmanUnavailable();
  if (unavailable) return unavailable;
  const built = spawnSync('gcc', [
    '-static',
    '-O1',
    '-o',
    join(work, 'bootstrap'),
    join(import.meta.dirname, 'fixtures', 'runtime-loop.c'),
  ]);
  if (built.status !== 0)
    return `gcc could not build the static runtime: ${built.stderr.toString().slice(0, 300)}`;
  const engine = podmanOnRunc(work);
  writeFileSync(join(work, 'Dockerfile'), 'FROM scratch\nCOPY bootstrap /bootstrap\n');
  const image = spawnSync(engine, ['build', '-q', '-t', 'cdkd-probe', work]);
  if (image.status !== 0) return `podman cannot build here: ${image.stderr.toString().slice(0, 300)}`;
  // The runtime exits 2 when no runtime API answers: it ran.
  const probe = spawnSync(engine, [
    'run',
    '--rm',
    '-e',
    'AWS_LAMBDA_RUNTIME_API=127.0.0.1:1',
    'cdkd-probe',
    '/bootstrap',
  ]);
  if (probe.status !== 2)
    return `podman cannot run a container here: ${probe.stderr.toString().slice(0, 300)}`;
  return undefined;
}

/** The sandbox's engine: podman through the wrapper holding its storage and settings. */
function engineEnv(): { CDK_DOCKER: string } {
  return { CDK_DOCKER: join(work, 'podman.sh') };
}

const skipReason = cannotRun();

let sandbox: Sandbox;
let ecr: ECRClient;
let lambda: LambdaClient;
let auth: string;
const saved: Record<string, string | undefined> = {};

/** Sets the sandbox process's variables for the engine, restoring them after the file. */
function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (!(name in saved)) saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

beforeAll(async () => {
  ({ sandbox, ecr, auth } = await startRegistrySandbox());
  lambda = lambdaClient(sandbox);
  await ecr.send(new CreateRepositoryCommand({ repositoryName: 'fns/runtime' }));
});
afterAll(async () => {
  ecr.destroy();
  lambda.destroy();
  await sandbox.stop();
  setEnv(saved);
  if (existsSync(join(work, 'podman.sh'))) await settleContainers(work);
  rmSync(work, { recursive: true, force: true });
});

async function imageFunction(
  FunctionName: string,
  tag: string,
  extra: Partial<CreateFunctionCommandInput> = {},
): Promise<void> {
  const bootstrap = existsSync(join(work, 'bootstrap')) ? readFileSync(join(work, 'bootstrap')) : 'none';
  await pushImage(
    sandbox,
    auth,
    'fns/runtime',
    scratchImage({ bootstrap, 'srv/marker': '' }, { cmd: ['from-image'] }),
    tag,
  );
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName,
      Role: 'arn:aws:iam::000000000000:role/exec',
      PackageType: 'Image',
      Code: { ImageUri: `${REGISTRY}/fns/runtime:${tag}` },
      ...extra,
    }),
  );
}

/** A sandbox apart from the file's, holding the image function `<name>-fn` (image fns/<name>). */
async function sandboxOfItsOwn(
  name: string,
  Timeout: number,
): Promise<{ own: Awaited<ReturnType<typeof startRegistrySandbox>>; client: LambdaClient }> {
  const own = await startRegistrySandbox();
  const client = lambdaClient(own.sandbox);
  await own.ecr.send(new CreateRepositoryCommand({ repositoryName: `fns/${name}` }));
  const image = scratchImage({ bootstrap: readFileSync(join(work, 'bootstrap')) });
  await pushImage(own.sandbox, own.auth, `fns/${name}`, image, name);
  await client.send(
    new CreateFunctionCommand({
      FunctionName: `${name}-fn`,
      Role: 'arn:aws:iam::000000000000:role/exec',
      PackageType: 'Image',
      Code: { ImageUri: `${REGISTRY}/fns/${name}:${name}` },
      Timeout,
    }),
  );
  return { own, client };
}

const invoke = (FunctionName: string, event: unknown, InvocationType?: 'Event') =>
  lambda.send(
    new InvokeCommand({
      FunctionName,
      Payload: Buffer.from(JSON.stringify(event)),
      LogType: 'Tail',
      ...(InvocationType ? { InvocationType } : {}),
    }),
  );
const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');

describe('image functions without an engine that can run them', () => {
  it('answers InvalidRuntimeException (502) naming CDK_DOCKER when it names no program', async () => {
    setEnv({ CDK_DOCKER: join(work, 'no-such-engine') });
    await imageFunction('no-engine-fn', 'none');
    for (const type of [undefined, 'Event'] as const) {
      const refused = await failure(invoke('no-engine-fn', {}, type));
      expect(refused).toMatchObject({ name: 'InvalidRuntimeException', status: 502 });
      expect(refused.error.message).toContain(
        `The sandbox cannot invoke the container image function no-engine-fn (${REGISTRY}/fns/runtime@sha256:`,
      );
      expect(refused.error.message).toContain(
        `CDK_DOCKER names the container engine "${join(work, 'no-such-engine')}", which is not on the PATH`,
      );
    }
  });

  it('answers InvalidRuntimeException (502) with what the engine said when it cannot pull the image', async () => {
    const engine = join(work, 'daemonless-engine');
    writeFileSync(
      engine,
      '#!/bin/sh\necho "Cannot connect to the Docker daemon at unix:///var/run/docker.sock." >&2\nexit 1\n',
    );
    chmodSync(engine, 0o755);
    setEnv({ CDK_DOCKER: engine });
    await imageFunction('daemonless-fn', 'daemonless');
    const refused = await failure(invoke('daemonless-fn', {}));
    expect(refused).toMatchObject({ name: 'InvalidRuntimeException', status: 502 });
    expect(refused.error.message).toMatch(
      new RegExp(
        `the container engine "${engine}" could not pull 127\\.0\\.0\\.1:\\d+/fns/runtime@sha256:[0-9a-f]{64} from the sandbox's registry: Cannot connect to the Docker daemon`,
      ),
    );
    expect(refused.error.message).toContain('a running Docker daemon');
  });

  it('answers InvalidRuntimeException (502) with what the engine said when it cannot run the container', async () => {
    const engine = join(work, 'broken-engine');
    writeFileSync(
      engine,
      '#!/bin/sh\ncase "$1" in run) echo "Error: OCI runtime error: cgroups in hybrid mode not supported" >&2; exit 126;; esac\nexit 0\n',
    );
    chmodSync(engine, 0o755);
    setEnv({ CDK_DOCKER: engine });
    await imageFunction('broken-engine-fn', 'broken');
    const refused = await failure(invoke('broken-engine-fn', {}));
    expect(refused).toMatchObject({ name: 'InvalidRuntimeException', status: 502 });
    expect(refused.error.message).toContain(
      `the container engine "${engine}" could not run its container (exit status 126: Error: OCI runtime error: cgroups in hybrid mode not supported)`,
    );
  });
});

describe.skipIf(skipReason !== undefined)(
  `image functions run with podman${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    beforeAll(() => setEnv(engineEnv()));

    it("runs the image's runtime on Lambda's runtime API, with the function's environment, ImageConfig and role", async () => {
      await imageFunction('echo-fn', 'echo', {
        Environment: { Variables: { GREETING: 'hello from config' } },
        ImageConfig: { Command: ['alpha', 'beta'], WorkingDirectory: '/srv' },
      });
      const answered = await invoke('echo-fn', { ping: 1 });
      expect(answered.FunctionError).toBeUndefined();
      const result = JSON.parse(text(answered.Payload)) as Record<string, unknown>;
      expect(result).toMatchObject({
        event: { ping: 1 },
        args: 'alpha beta',
        greeting: 'hello from config',
        function: 'echo-fn',
        arn: 'arn:aws:lambda:us-east-1:000000000000:function:echo-fn',
        endpoint: sandbox.url,
        cwd: '/srv',
        handler: 'alpha',
        // The image's ENV PATH, not the sandbox's.
        path: '/',
      });
      expect(result.accessKey).toMatch(/^[A-Z0-9]{16,}$/);
      expect(Number(result.deadline)).toBeGreaterThan(Date.now());
      const tail = Buffer.from(answered.LogResult!, 'base64').toString('utf8');
      expect(tail).toMatch(/^START RequestId: (\S+) Version: \$LATEST\n/);
      const requestId = /^START RequestId: (\S+)/.exec(tail)![1];
      expect(result.requestId).toBe(requestId);
      expect(tail).toContain('image function got {"ping":1}');
      expect(tail).toMatch(/END RequestId: \S+\nREPORT RequestId: \S+\tDuration: /);
      // Without ImageConfig the image's own ENTRYPOINT and CMD run.
      await imageFunction('plain-fn', 'plain');
      const plain = JSON.parse(text((await invoke('plain-fn', {})).Payload)) as Record<string, unknown>;
      expect(plain).toMatchObject({ args: 'from-image', cwd: '/', handler: 'from-image' });
    });

    it("reports the runtime's error and an exit as Unhandled function errors", async () => {
      await imageFunction('fail-fn', 'fail');
      const failed = await invoke('fail-fn', { fail: true });
      expect(failed.FunctionError).toBe('Unhandled');
      expect(JSON.parse(text(failed.Payload))).toEqual({
        errorMessage: 'the image failed',
        errorType: 'ImageError',
        stackTrace: ['main'],
      });
      const exited = await invoke('fail-fn', { exit: true });
      expect(exited.FunctionError).toBe('Unhandled');
      expect(JSON.parse(text(exited.Payload))).toMatchObject({
        errorType: 'Runtime.ExitError',
        errorMessage: expect.stringMatching(/Runtime exited with error: exit status 3$/),
      });
    });

    it("stops a function at its timeout with Lambda's timeout error and removes its container", async () => {
      await imageFunction('slow-fn', 'slow', { Timeout: 2 });
      const begin = Date.now();
      const timedOut = await invoke('slow-fn', { sleep: true });
      expect(Date.now() - begin).toBeLessThan(30_000);
      expect(timedOut.FunctionError).toBe('Unhandled');
      expect(JSON.parse(text(timedOut.Payload))).toMatchObject({
        errorType: 'Sandbox.Timedout',
        errorMessage: expect.stringMatching(/Task timed out after 2\.00 seconds$/),
      });
      expect(Buffer.from(timedOut.LogResult!, 'base64').toString('utf8')).toMatch(
        /Task timed out after 2\.00 seconds\nEND RequestId/,
      );
      const left = spawnSync(
        engineEnv().CDK_DOCKER,
        ['ps', '-a', '--format', '{{.Names}}', '--filter', 'name=cdkd-lambda-slow-fn'],
        {
          env: { ...process.env, ...engineEnv() },
        },
      );
      expect(left.status).toBe(0);
      expect(left.stdout.toString().trim()).toBe('');
    });

    it('removes a running container when the sandbox stops', async () => {
      const { own, client } = await sandboxOfItsOwn('stop', 300);
      const running = client
        .send(new InvokeCommand({ FunctionName: 'stop-fn', Payload: Buffer.from('{"sleep":1}') }))
        .catch((error: unknown) => error);
      const names = () =>
        spawnSync(
          engineEnv().CDK_DOCKER,
          ['ps', '-a', '--format', '{{.Names}}', '--filter', 'name=cdkd-lambda-stop-fn'],
          {
            env: { ...process.env, ...engineEnv() },
          },
        )
          .stdout.toString()
          .trim();
      for (let attempt = 0; attempt < 100 && names() === ''; attempt++) {
        await new Promise((wait) => setTimeout(wait, 200));
      }
      expect(names()).toMatch(/^cdkd-lambda-stop-fn-/);
      const begin = Date.now();
      await own.sandbox.stop();
      expect(Date.now() - begin).toBeLessThan(60_000);
      expect(names()).toBe('');
      await running;
      client.destroy();
      own.ecr.destroy();
    });

    it("removes the containers a killed sandbox left running when a sandbox next invokes an image function, and never a live sandbox's", async () => {
      // A runtime API that never answers: the runtime waits on it, its container runs on.
      const silent = createServer(() => undefined);
      await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
      const api = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const engine = engineEnv().CDK_DOCKER;
      // Past any pid_max: that sandbox no longer runs. The test's own process runs.
      const left = { 'cdkd-lambda-ghost-dead': 999_999_999, 'cdkd-lambda-ghost-live': process.pid };
      for (const [name, pid] of Object.entries(left)) {
        const started = spawnSync(engine, [
          'run',
          '-d',
          '--name',
          name,
          '--label',
          `cdkd.sandbox-pid=${pid}`,
          '--network',
          'host',
          '-e',
          `AWS_LAMBDA_RUNTIME_API=${api}`,
          'cdkd-probe',
          '/bootstrap',
        ]);
        expect(started.status, started.stderr.toString()).toBe(0);
      }
      const running = () =>
        spawnSync(engine, ['ps', '--format', '{{.Names}}', '--filter', 'name=cdkd-lambda-ghost'])
          .stdout.toString()
          .trim()
          .split('\n')
          .sort();
      expect(running()).toEqual(['cdkd-lambda-ghost-dead', 'cdkd-lambda-ghost-live']);
      const { own, client } = await sandboxOfItsOwn('sweep', 3);
      try {
        // Starting a sandbox and creating a function leave them: no engine is used until an image function runs.
        expect(running()).toEqual(['cdkd-lambda-ghost-dead', 'cdkd-lambda-ghost-live']);
        const answered = await client.send(
          new InvokeCommand({ FunctionName: 'sweep-fn', Payload: Buffer.from('{}') }),
        );
        expect(answered.FunctionError).toBeUndefined();
        for (let attempt = 0; attempt < 100 && running().includes('cdkd-lambda-ghost-dead'); attempt++) {
          await new Promise((wait) => setTimeout(wait, 200));
        }
        expect(running()).toEqual(['cdkd-lambda-ghost-live']);
        expect(
          spawnSync(engine, ['ps', '-a', '--format', '{{.Names}}', '--filter', 'name=cdkd-lambda-ghost-dead'])
            .stdout.toString()
            .trim(),
        ).toBe('');
      } finally {
        client.destroy();
        own.ecr.destroy();
        await own.sandbox.stop();
        spawnSync(engine, ['kill', '--signal', 'KILL', ...Object.keys(left)]);
        spawnSync(engine, ['rm', '--force', ...Object.keys(left)]);
        silent.closeAllConnections();
        silent.close();
      }
    });

    it("runs an Event invocation, its output in the function's log group", async () => {
      await imageFunction('event-fn', 'event');
      const accepted = await invoke('event-fn', { queued: 'event-42' }, 'Event');
      expect(accepted.StatusCode).toBe(202);
      const logs = new CloudWatchLogsClient({
        endpoint: sandbox.url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'x' },
        maxAttempts: 1,
      });
      let messages: string[] = [];
      for (let attempt = 0; attempt < 120 && !messages.some((m) => m.startsWith('REPORT')); attempt++) {
        await new Promise((wait) => setTimeout(wait, 500));
        const found = await logs
          .send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/event-fn' }))
          .catch(() => ({ events: [] }));
        messages = (found.events ?? []).map((event) => event.message ?? '');
      }
      logs.destroy();
      expect(messages).toContain('image function got {"queued":"event-42"}');
      expect(messages.some((m) => m.startsWith('REPORT RequestId'))).toBe(true);
    });
  },
);

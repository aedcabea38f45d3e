import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerRunCommand, lambdaBaseImage } from '../../src/local/container.js';
import { ownedInvocation } from '../../src/local/leftover-invocations.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import {
  containerNames,
  copyNodeInto,
  podmanOnRunc,
  podmanUnavailable,
  settleContainers,
} from '../helpers/container-engine.js';
import { tempDir } from '../assembly/helpers.js';

// `cdkd local invoke --container`: the engine command as a pure function, the refusals an
// engine that is missing or cannot run gives, a real run with podman of a stand-in for the
// Lambda base image (none can be pulled here), and one of the real base image where an engine
// holds it.
describe('lambdaBaseImage', () => {
  it.each([
    ['nodejs22.x', 'public.ecr.aws/lambda/nodejs:22'],
    ['nodejs18.x', 'public.ecr.aws/lambda/nodejs:18'],
    ['python3.12', 'public.ecr.aws/lambda/python:3.12'],
    ['ruby3.3', undefined],
    ['provided.al2023', undefined],
  ])('%s → %s', (runtime, image) => {
    expect(lambdaBaseImage(runtime)).toBe(image);
  });
});

describe('ownedInvocation', () => {
  it.each([
    ['cdkd-local-4321-45037', [{ name: 'cdkd-local-4321-45037', pid: 4321 }]],
    ['cdkd-local-4321', []],
    ['cdkd-local-x-45037', []],
    ['cdkd-local-4321-45037-copy', []],
    ['cdkd-lambda-4321-45037', []],
  ])('%s → %j', (name, owned) => {
    expect(ownedInvocation(name)).toEqual(owned);
  });
});

describe('containerRunCommand', () => {
  it('mounts the code read-only, publishes the emulator on the loopback, passes variables by name', () => {
    const command = containerRunCommand({
      image: 'public.ecr.aws/lambda/nodejs:22',
      handler: 'lib/main.handler',
      taskRoot: '/code',
      env: { AWS_SECRET_ACCESS_KEY: 'secret', GREETING: 'hi' },
      hostPort: 4567,
      name: 'cdkd-local-1',
    });
    expect(command.args).toEqual([
      'run',
      '--rm',
      '--name',
      'cdkd-local-1',
      '-p',
      '127.0.0.1:4567:8080',
      '-v',
      '/code:/var/task:ro',
      '-e',
      'AWS_SECRET_ACCESS_KEY',
      '-e',
      'GREETING',
      'public.ecr.aws/lambda/nodejs:22',
      'lib/main.handler',
    ]);
    // The values travel in the engine's environment, never on its command line.
    expect(command.args.join(' ')).not.toContain('secret');
    expect(command.env).toEqual({ AWS_SECRET_ACCESS_KEY: 'secret', GREETING: 'hi' });
  });

  it('mounts the merged layers at /opt', () => {
    const command = containerRunCommand({
      image: 'public.ecr.aws/lambda/python:3.12',
      handler: 'index.handler',
      taskRoot: '/code',
      optDir: '/layers',
      env: {},
      hostPort: 1,
      name: 'n',
    });
    expect(command.args).toContain('/layers:/opt:ro');
    expect(command.args.slice(-2)).toEqual(['public.ecr.aws/lambda/python:3.12', 'index.handler']);
  });
});

/** An engine on this machine holding the Node.js 22 base image, or why there is none. */
function runnableEngine(): { engine?: string; reason: string } {
  for (const engine of [process.env.CDK_DOCKER, 'docker', 'podman'].filter((e): e is string => !!e)) {
    try {
      execFileSync(engine, ['image', 'inspect', 'public.ecr.aws/lambda/nodejs:22'], {
        stdio: 'ignore',
        timeout: 20_000,
      });
      return { engine, reason: '' };
    } catch {
      // Not installed, no daemon, or no image: try the next.
    }
  }
  return {
    reason:
      'no container engine here holds public.ecr.aws/lambda/nodejs:22, and no registry is reachable to pull it',
  };
}

describe('cdkd local invoke --container', () => {
  let app: string;
  beforeAll(() => {
    app = synthesizeApp((cdk) => {
      const stack = new Stack(cdk, 'Boxed');
      inlineFunction(stack, 'Fn', 'exports.handler = async (event) => ({ boxed: true, got: event });');
    });
  });

  it('names CDK_DOCKER when the engine is not on the PATH', async () => {
    const result = await runCli(['local', 'invoke', 'Boxed/Fn', '-a', app, '--container', '--no-deployed'], {
      env: { CDK_DOCKER: 'cdkd-no-such-engine' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOCAL_CONTAINER_ENGINE_MISSING');
    expect(result.stderr).toContain('cdkd-no-such-engine');
  });

  it('reports an engine that exits without answering, with what to try', async () => {
    const result = await runCli(['local', 'invoke', 'Boxed/Fn', '-a', app, '--container', '--no-deployed'], {
      env: { CDK_DOCKER: 'false' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LOCAL_CONTAINER_FAILED');
    expect(result.stderr).toContain('public.ecr.aws/lambda/nodejs:22');
  });

  const engine = runnableEngine();
  it.skipIf(!engine.engine)(
    `runs the handler in its base image${engine.engine ? ` with ${engine.engine}` : ` (skipped: ${engine.reason})`}`,
    async () => {
      const result = await runCli(
        ['local', 'invoke', 'Boxed/Fn', '-a', app, '--container', '--no-deployed'],
        {
          env: { CDK_DOCKER: engine.engine! },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ boxed: true, got: {} });
    },
  );
});

/**
 * What `--container` relies on in the Lambda base image, and no more: an entrypoint serving
 * the runtime interface emulator's invoke endpoint on port 8080 that runs the handler its
 * command names from /var/task. Here it is node and a few lines, as the real image cannot be
 * pulled; the engine, its arguments, the mounts, the variables and the port are all real.
 */
const EMULATOR = `
const http = require('node:http');
const spec = process.argv[2];
const dot = spec.lastIndexOf('.');
const handler = require('/var/task/' + spec.slice(0, dot))[spec.slice(dot + 1)];
process.on('SIGTERM', () => process.exit(0));
http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', async () => {
    if (request.url !== '/2015-03-31/functions/function/invocations') return response.writeHead(404).end();
    try {
      response.end(JSON.stringify(await handler(JSON.parse(body || '{}'), {})));
    } catch (error) {
      response.end(JSON.stringify({ errorType: error.name, errorMessage: error.message }));
    }
  });
}).listen(8080);
`;

const unavailable = podmanUnavailable();
describe.skipIf(unavailable !== undefined)(
  `cdkd local invoke --container with podman, a stand-in base image${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let engine: string;
    let app: string;
    let work: string;
    beforeAll(() => {
      work = tempDir();
      engine = podmanOnRunc(work);
      const context = join(work, 'image');
      copyNodeInto(context);
      writeFileSync(join(context, 'emulator.js'), EMULATOR);
      writeFileSync(
        join(context, 'Dockerfile'),
        'FROM scratch\nCOPY . /\nENTRYPOINT ["/usr/bin/node", "/emulator.js"]\n',
      );
      execFileSync(engine, ['build', '--quiet', '--tag', 'public.ecr.aws/lambda/nodejs:22', context], {
        stdio: 'ignore',
      });
      app = synthesizeApp((cdk) => {
        const stack = new Stack(cdk, 'Boxed');
        inlineFunction(
          stack,
          'Fn',
          "exports.handler = async (event) => { if (event.fail) throw new TypeError('asked to'); return { boxed: true, got: event, region: process.env.AWS_REGION, inside: require('fs').existsSync('/emulator.js') }; };",
        );
      });
    }, 300_000);
    afterAll(() => settleContainers(work), 120_000);

    it('runs the handler from the code mounted at /var/task, with its variables, and removes the container', async () => {
      const invoke = (event: string) => {
        const file = join(work, 'event.json');
        writeFileSync(file, event);
        return runCli(
          ['local', 'invoke', 'Boxed/Fn', '-a', app, '--container', '--no-deployed', '--event', file],
          {
            env: { CDK_DOCKER: engine, AWS_REGION: 'eu-west-1' },
          },
        );
      };
      const result = await invoke('{"n":1}');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        boxed: true,
        got: { n: 1 },
        region: 'eu-west-1',
        inside: true,
      });
      const failed = await invoke('{"fail":true}');
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stdout + failed.stderr).toContain('asked to');
      expect(containerNames(engine, 'cdkd-local-')).toEqual([]);
    }, 300_000);

    it("removes the containers a killed cdkd local invoke left, and never a live cdkd's", async () => {
      // Created, not started: a killed invocation's container as `ps -a` lists it.
      const dead = 'cdkd-local-999999999-1';
      const live = `cdkd-local-${process.pid}-2`;
      for (const name of [dead, live]) {
        execFileSync(engine, ['create', '--name', name, 'public.ecr.aws/lambda/nodejs:22', 'index.handler'], {
          stdio: 'ignore',
        });
      }
      try {
        const file = join(work, 'event.json');
        writeFileSync(file, '{"n":2}');
        const result = await runCli(
          ['local', 'invoke', 'Boxed/Fn', '-a', app, '--container', '--no-deployed', '--event', file],
          { env: { CDK_DOCKER: engine } },
        );
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toContain(`Removing 1 container(s) a killed cdkd local left running: ${dead}.`);
        expect(containerNames(engine, 'cdkd-local-')).toEqual([live]);
      } finally {
        execFileSync(engine, ['rm', '-f', live], { stdio: 'ignore' });
      }
    }, 300_000);
  },
);

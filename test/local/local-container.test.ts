import { execFileSync } from 'node:child_process';
import { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { containerRunCommand, lambdaBaseImage } from '../../src/local/container.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';

// `cdkd local invoke --container`: the engine command as a pure function, the refusals an
// engine that is missing or cannot run gives, and (where an engine holds the Lambda base
// image: no image can be pulled on the development machine) a real run.
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

import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import {
  Cluster,
  ContainerImage,
  FargateService,
  FargateTaskDefinition,
  Secret as EcsSecret,
} from 'aws-cdk-lib/aws-ecs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAssembly } from '../../src/assembly/index.js';
import { ImageBuilder } from '../../src/local/service/image-builder.js';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli, startCli } from '../helpers/cli.js';

// `cdkd local start-service` on a real aws-cdk-lib app: a Fargate service whose task has an
// image-asset container with variables and a port, and a registry sidecar. A stand-in engine
// (CDK_DOCKER, a script recording what it is asked) shows the commands cdkd runs;
// local-service-engine.test.ts runs a task with podman for real.

let work: string;
let app: string;
let imageDir: string;

function service(cdk: Parameters<Parameters<typeof synthesizeApp>[0]>[0], withSecret: boolean) {
  const stack = new Stack(cdk, 'Svc');
  const cluster = new Cluster(stack, 'Cluster', {
    vpc: new Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }),
  });
  const task = new FargateTaskDefinition(stack, 'Task');
  task.addContainer('web', {
    image: ContainerImage.fromAsset(imageDir),
    environment: { MODE: 'local' },
    portMappings: [{ containerPort: 8080 }],
    command: ['--version'],
    ...(withSecret
      ? { secrets: { DB_PASSWORD: EcsSecret.fromSecretsManager(new Secret(stack, 'Db'), 'password') } }
      : {}),
  });
  task.addContainer('side', {
    image: ContainerImage.fromRegistry('public.ecr.aws/nginx/nginx:1.27'),
    portMappings: [{ containerPort: 80, hostPort: 80 }],
    essential: false,
  });
  new FargateService(stack, 'Web', { cluster, taskDefinition: task });
}

beforeAll(() => {
  work = tempDir();
  imageDir = join(work, 'image');
  execFileSync('mkdir', ['-p', imageDir]);
  writeFileSync(join(imageDir, 'tool'), '');
  writeFileSync(join(imageDir, 'Dockerfile'), 'FROM scratch\nCOPY tool /tool\nENTRYPOINT ["/tool"]\n');
  app = synthesizeApp((cdk) => service(cdk, false));
}, 120_000);

/** A stand-in engine: records each call (and the variables it was handed); `run` stays up until stopped. */
let engines = 0;
function stubEngine(exitCode = 0): { path: string; log: string } {
  engines += 1;
  const path = join(work, `engine-${engines}.sh`);
  const log = join(work, `engine-${engines}.log`);
  writeFileSync(
    path,
    `#!/bin/sh\necho "ARGS $*" >> ${log}\necho "PWD $(pwd)" >> ${log}\n` +
      `if [ "$1" = run ]; then echo "MODE=$MODE" >> ${log}; echo "up $3"; ${exitCode === 0 ? 'exec sleep 60' : `exit ${exitCode}`}; fi\n`,
  );
  chmodSync(path, 0o755);
  return { path, log };
}

describe('cdkd local start-service with a stand-in engine', () => {
  it('builds the image asset, then runs each container with its ports, variables by name and command', async () => {
    const engine = stubEngine();
    const server = startCli(['local', 'start-service', 'Svc/Web', '-a', app, '--no-deployed'], 'Running;', {
      env: { CDK_DOCKER: engine.path },
    });
    await Promise.race([
      server.creating,
      server.done.then((code) => {
        throw new Error(`start-service exited with ${code}: ${server.stderr()}`);
      }),
    ]);
    // Each stand-in container says "up" once it has recorded its call.
    const up = () => /web#1 \| up/.test(server.stderr()) && /side#1 \| up/.test(server.stderr());
    for (let waited = 0; !up(); waited += 50) {
      if (waited > 30_000) throw new Error(`the containers did not start: ${server.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const calls = readFileSync(engine.log, 'utf8');
    const build = /ARGS build --tag (cdkasset-[0-9a-f]+) \.\nPWD (.*)\n/.exec(calls);
    expect(build?.[2]).toMatch(/asset\.[0-9a-f]+$/);
    const tag = build![1]!;
    const web = new RegExp(
      `ARGS run --rm --name (cdkd-Svc-Web-web-\\d+-1) -p 127\\.0\\.0\\.1:8080:8080/tcp -p 127\\.0\\.0\\.1:80:80/tcp -e MODE ${tag} --version\\n`,
    ).exec(calls);
    expect(web, calls).not.toBeNull();
    expect(calls).toContain(
      `ARGS run --rm --name cdkd-Svc-Web-side-${/-(\d+-1)$/.exec(web![1]!)![1]} --network container:${web![1]} public.ecr.aws/nginx/nginx:1.27\n`,
    );
    // The variable's value reaches the engine through its environment.
    expect(calls).toContain('MODE=local');
    expect(server.stderr()).toMatch(/Building image asset .*: .*engine-\d+\.sh build --tag cdkasset-/);
    expect(server.stderr()).toContain('task 1: container port 8080/tcp on 127.0.0.1:8080');
    server.child.kill('SIGTERM');
    expect(
      await server.done,
      `${server.stderr()}(ended by ${server.child.signalCode ?? 'its own exit'})`,
    ).toBe(0);
  }, 120_000);

  it('with --no-restart, fails when an essential container exits, saying which service stopped', async () => {
    const engine = stubEngine(3);
    const result = await runCli(['local', 'start-service', '-a', app, '--no-deployed', '--no-restart'], {
      env: { CDK_DOCKER: engine.path },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/An essential container of ECS service Svc\/Web exited with code 3/);
  }, 120_000);

  it('refuses a task with secrets when the deployed stack is not read', async () => {
    const withSecret = synthesizeApp((cdk) => service(cdk, true));
    const engine = stubEngine();
    const result = await runCli(['local', 'start-service', '-a', withSecret, '--no-deployed'], {
      env: { CDK_DOCKER: engine.path },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /takes secrets \(DB_PASSWORD\) whose values exist only in the deployed stack/,
    );
    expect(() => readFileSync(engine.log, 'utf8')).toThrow();
  }, 120_000);

  it('names the missing engine', async () => {
    const result = await runCli(['local', 'start-service', '-a', app, '--no-deployed'], {
      env: { CDK_DOCKER: join(work, 'no-such-engine') },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /CDK_DOCKER names the container engine ".*no-such-engine", which is not on the PATH/,
    );
  }, 120_000);
});

describe('image asset builds', () => {
  it('announces each distinct build command once per run, repeats only to --verbose', async () => {
    const engine = stubEngine();
    const asset = readAssembly(app).stacks[0]!.assetManifests.flatMap((m) => m.containers)[0]!;
    const info: string[] = [];
    const verbose: string[] = [];
    const builder = new ImageBuilder(engine.path, 'Svc', {
      onInfo: (m) => info.push(m),
      onVerbose: (m) => verbose.push(m),
    });
    expect(await builder.build(asset)).toMatch(/^cdkasset-/);
    await builder.build(asset);
    expect(info).toHaveLength(1);
    expect(verbose).toEqual(info);
    expect(readFileSync(engine.log, 'utf8').match(/ARGS build/g)).toHaveLength(2);
  });
});

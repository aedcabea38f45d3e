import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import { Cluster, ContainerImage, FargateService, FargateTaskDefinition } from 'aws-cdk-lib/aws-ecs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { REPO_ROOT, runCli, startCli } from '../helpers/cli.js';

// `cdkd local start-service` running a service as the ECS service scheduler would: its
// DesiredCount tasks, a task whose essential container exits replaced after a delay, images
// rebuilt and tasks replaced when an image asset's files change. No engine here can run a
// container, so a stand-in engine (CDK_DOCKER) records each call; its `run` stays up until
// the test writes `exit-<container name>` holding the exit code; its `ps` prints the file `ps`.
let work: string;

function app(options: { desiredCount?: number; ports?: number[] } = {}): string {
  const imageDir = join(tempDir(), 'image');
  return synthesizeApp((cdk) => {
    mkdirSync(imageDir, { recursive: true });
    writeFileSync(join(imageDir, 'Dockerfile'), 'FROM scratch\nCOPY . /\n');
    const stack = new Stack(cdk, 'Svc');
    const cluster = new Cluster(stack, 'Cluster', {
      vpc: new Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }),
    });
    const task = new FargateTaskDefinition(stack, 'Task');
    task.addContainer('web', {
      image: ContainerImage.fromAsset(imageDir),
      portMappings: (options.ports ?? [8080]).map((containerPort) => ({ containerPort })),
    });
    task.addContainer('side', {
      image: ContainerImage.fromRegistry('public.ecr.aws/nginx/nginx:1.27'),
      essential: false,
    });
    new FargateService(stack, 'Web', {
      cluster,
      taskDefinition: task,
      ...(options.desiredCount !== undefined ? { desiredCount: options.desiredCount } : {}),
    });
  });
}

let engines = 0;
function stubEngine(): { path: string; log: string; dir: string } {
  engines += 1;
  const dir = join(work, `engine-${engines}`);
  mkdirSync(dir);
  const path = join(dir, 'engine.sh');
  const log = join(dir, 'calls.log');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `echo "ARGS $*" >> ${log}`,
      'if [ "$1" = run ]; then',
      '  name=$4',
      '  echo "up $name"',
      `  trap 'echo "TERM $name" >> ${log}; exit 143' TERM`,
      `  while [ ! -f ${dir}/exit-$name ]; do sleep 0.05; done`,
      `  exit $(cat ${dir}/exit-$name)`,
      'fi',
      `if [ "$1" = ps ] && [ -f ${dir}/ps ]; then cat ${dir}/ps; fi`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return { path, log, dir };
}

let server: ReturnType<typeof startCli> | undefined;
const calls = (engine: { log: string }) => (existsSync(engine.log) ? readFileSync(engine.log, 'utf8') : '');
const runs = (engine: { log: string }) =>
  [...calls(engine).matchAll(/ARGS run --rm --name (\S+)(.*)/g)].map((match) => ({
    name: match[1]!,
    args: match[2]!,
  }));

/**
 * The run of one container of one task, found by its name: the stand-in engine's processes
 * log in the order they get the CPU, not the order cdkd started them.
 */
const run = (engine: { log: string }, container: string, task: number) => {
  const found = runs(engine).find((candidate) =>
    new RegExp(`-${container}-\\d+-${task}$`).test(candidate.name),
  );
  if (!found) throw new Error(`no run of ${container} in task ${task}:\n${calls(engine)}`);
  return found;
};

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server?.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function start(args: string[], engine: { path: string }, cwd?: string) {
  server = startCli(['local', 'start-service', '--no-deployed', ...args], 'Running;', {
    env: { CDK_DOCKER: engine.path, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' },
    ...(cwd ? { cwd } : {}),
  });
  await Promise.race([
    server.creating,
    server.done.then((code) => {
      throw new Error(`start-service exited with ${code}: ${server!.stderr()}`);
    }),
  ]);
  return server;
}

beforeAll(() => {
  work = tempDir();
});

afterEach(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.done;
  }
  server = undefined;
});

describe('cdkd local start-service: replicas, restarts, rebuilds', () => {
  it("runs the service's DesiredCount tasks, each container named by its task, each task's ports one higher", async () => {
    const engine = stubEngine();
    const running = await start(['-a', app({ desiredCount: 2 })], engine);
    await until(() => runs(engine).length === 4, 'two tasks of two containers');
    const [web1, side1, web2, side2] = [
      run(engine, 'web', 1),
      run(engine, 'side', 1),
      run(engine, 'web', 2),
      run(engine, 'side', 2),
    ];
    expect(web1!.name).toMatch(/^cdkd-Svc-Web-web-\d+-1$/);
    expect(side1!.name).toBe(web1!.name.replace('-web-', '-side-'));
    expect(web2!.name).toBe(web1!.name.replace(/-1$/, '-2'));
    expect(side2!.name).toBe(web2!.name.replace('-web-', '-side-'));
    expect(web1!.args).toContain('-p 127.0.0.1:8080:8080/tcp');
    expect(web2!.args).toContain('-p 127.0.0.1:8081:8080/tcp');
    expect(side2!.args).toContain(`--network container:${web2!.name}`);
    expect(running.stderr()).toContain('task 2: container port 8080/tcp on 127.0.0.1:8081');
  }, 180_000);

  it('replaces a task whose essential container exits, its other containers stopped first; a non-essential exit stops nothing', async () => {
    const engine = stubEngine();
    const running = await start(['-a', app({ desiredCount: 2 })], engine);
    await until(() => runs(engine).length === 4, 'two tasks');
    const [web1, side1, web2, side2] = [
      run(engine, 'web', 1),
      run(engine, 'side', 1),
      run(engine, 'web', 2),
      run(engine, 'side', 2),
    ];
    writeFileSync(join(engine.dir, `exit-${side2!.name}`), '0');
    writeFileSync(join(engine.dir, `exit-${web1!.name}`), '3');
    await until(
      () => calls(engine).includes(`TERM ${side1!.name}`),
      'the sidecar of the stopped task stopped',
    );
    // The line reaches the pipe after the sidecar's stop call may have: wait for it.
    await until(
      () =>
        running
          .stderr()
          .includes(
            'Task 1 stopped: its essential container web exited with code 3; starting a new task in 1s',
          ),
      'the stopped task reported',
    );
    await until(() => runs(engine).length === 6, 'the replacement task');
    const [web3, side3] = [run(engine, 'web', 3), run(engine, 'side', 3)];
    expect(web3!.name).toBe(web1!.name.replace(/-1$/, '-3'));
    expect(side3!.name).toBe(side1!.name.replace(/-1$/, '-3'));
    // The replacement publishes the ports of the task it replaces.
    expect(web3!.args).toContain('-p 127.0.0.1:8080:8080/tcp');
    expect(calls(engine)).not.toContain(`TERM ${web2!.name}`);
    expect(running.stderr()).not.toContain('Task 2 stopped');
  }, 180_000);

  it('with --no-restart, replaces nothing and ends once no task runs, failing with the exit code', async () => {
    const engine = stubEngine();
    const running = await start(['-a', app({ desiredCount: 2 }), '--no-restart'], engine);
    await until(() => runs(engine).length === 4, 'two tasks');
    const [web1, web2] = [run(engine, 'web', 1), run(engine, 'web', 2)];
    writeFileSync(join(engine.dir, `exit-${web1!.name}`), '3');
    await until(() => running.stderr().includes('--no-restart: not replaced'), 'the first stop');
    expect(running.child.exitCode).toBeNull();
    writeFileSync(join(engine.dir, `exit-${web2!.name}`), '0');
    expect(await running.done).toBe(1);
    expect(running.stderr()).toContain('exited with code 3');
    expect(runs(engine)).toHaveLength(4);
  }, 180_000);

  it("rebuilds the image and replaces every task when a file of the image asset's directory changes (--app DIR)", async () => {
    const engine = stubEngine();
    const assembly = app({ desiredCount: 2 });
    const running = await start(['-a', assembly], engine);
    await until(() => runs(engine).length === 4, 'two tasks');
    const builds = () => calls(engine).match(/ARGS build/g)?.length ?? 0;
    expect(builds()).toBe(1);
    const asset = readdirSync(assembly).find((entry) => entry.startsWith('asset.'))!;
    writeFileSync(join(assembly, asset, 'index.html'), 'v2');
    await until(() => runs(engine).length === 8, 'the new tasks');
    expect(builds()).toBe(2);
    for (const task of [1, 2]) {
      for (const container of ['web', 'side']) {
        expect(calls(engine)).toContain(`TERM ${run(engine, container, task).name}`);
      }
    }
    expect(
      runs(engine)
        .map((started) => started.name.split('-').at(-1))
        .sort(),
    ).toEqual(['1', '1', '2', '2', '3', '3', '4', '4']);
    expect(running.stderr()).toContain('rebuilding the images');
  }, 180_000);

  it('removes the containers of this service that a killed start-service left running, and no others, before running its tasks', async () => {
    const engine = stubEngine();
    // Past any pid_max: that cdkd no longer runs. The test's own pid runs.
    const dead = 'cdkd-Svc-Web-web-999999999-1';
    const living = `cdkd-Svc-Web-web-${process.pid}-1`;
    const others = ['cdkd-Svc-Other-web-999999999-1', 'cdkd-Svc-Web-web-mine'];
    writeFileSync(join(engine.dir, 'ps'), [dead, living, ...others].join('\n') + '\n');
    await start(['-a', app()], engine);
    await until(() => runs(engine).length === 2, 'the task');
    const removal = calls(engine).indexOf(`ARGS rm -f ${dead}\n`);
    expect(removal).toBeGreaterThan(-1);
    expect(removal).toBeLessThan(calls(engine).indexOf('ARGS run'));
    expect(calls(engine).match(/ARGS rm/g)).toHaveLength(1);
  }, 180_000);

  it('refuses replicas whose ports would collide, and a --replicas that is not a count, before running anything', async () => {
    const engine = stubEngine();
    const collide = await runCli(
      ['local', 'start-service', '-a', app({ ports: [8080, 8081] }), '--no-deployed', '--replicas', '2'],
      {
        env: { CDK_DOCKER: engine.path },
      },
    );
    expect(collide.code).toBe(1);
    expect(collide.stderr).toContain('LOCAL_SERVICE_PORTS_COLLIDE');
    expect(collide.stderr).toContain('replicas 1 and 2 would both publish host port 8081/tcp');
    const zero = await runCli(['local', 'start-service', '-a', app(), '--no-deployed', '--replicas', '0'], {
      env: { CDK_DOCKER: engine.path },
    });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('LOCAL_REPLICAS_INVALID');
    expect(runs(engine)).toEqual([]);
  }, 180_000);

  it('synthesizes an app it runs again after a change to the image source, then rebuilds and replaces the tasks', async () => {
    const lib = (path: string) => JSON.stringify(join(REPO_ROOT, 'node_modules', path));
    const project = tempDir();
    mkdirSync(join(project, 'image'));
    writeFileSync(join(project, 'image', 'Dockerfile'), 'FROM scratch\nCOPY . /\n');
    writeFileSync(join(project, 'image', 'index.html'), 'v1');
    writeFileSync(join(project, 'cdk.json'), JSON.stringify({ app: 'node app.cjs' }));
    writeFileSync(
      join(project, 'app.cjs'),
      [
        `const cdk = require(${lib('aws-cdk-lib')});`,
        `const ec2 = require(${lib('aws-cdk-lib/aws-ec2')});`,
        `const ecs = require(${lib('aws-cdk-lib/aws-ecs')});`,
        'const app = new cdk.App();',
        "const stack = new cdk.Stack(app, 'Svc');",
        "const cluster = new ecs.Cluster(stack, 'Cluster', { vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }) });",
        "const task = new ecs.FargateTaskDefinition(stack, 'Task');",
        "task.addContainer('web', { image: ecs.ContainerImage.fromAsset(require('node:path').join(__dirname, 'image')), portMappings: [{ containerPort: 8080 }] });",
        "new ecs.FargateService(stack, 'Web', { cluster, taskDefinition: task });",
        'app.synth();',
      ].join('\n'),
    );
    const engine = stubEngine();
    const running = await start(['--no-validation'], engine, project);
    await until(() => runs(engine).length === 1, 'the task');
    const tags = () => [...calls(engine).matchAll(/ARGS build --tag (\S+)/g)].map((match) => match[1]);
    expect(tags()).toHaveLength(1);
    writeFileSync(join(project, 'image', 'index.html'), 'v2');
    await until(() => runs(engine).length === 2, 'the new task', 120_000);
    expect(running.stderr()).toContain('Changed: image/index.html; synthesizing again.');
    expect(calls(engine)).toContain(`TERM ${runs(engine)[0]!.name}`);
    // The new synthesis stages the changed directory under a new asset hash: a new image, run by the new task.
    expect(tags()).toHaveLength(2);
    expect(tags()[1]).not.toBe(tags()[0]);
    expect(runs(engine)[1]!.args).toContain(tags()[1]);
    // A change the task definition does not see (the README) replaces nothing.
    writeFileSync(join(project, 'README.md'), 'notes');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(runs(engine)).toHaveLength(2);
  }, 240_000);
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import { Cluster, ContainerImage, FargateService, FargateTaskDefinition } from 'aws-cdk-lib/aws-ecs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { startCli } from '../helpers/cli.js';
import {
  containerNames,
  podmanOnRunc,
  podmanUnavailable,
  settleContainers,
} from '../helpers/container-engine.js';

// `cdkd local start-service` with a real container engine: podman builds the task's image from
// its asset (FROM scratch, a static HTTP server compiled here, as no base image can be pulled)
// and runs it with the task definition's environment and port mapping; Ctrl-C stops it as ECS
// does (SIGTERM, then a kill after its StopTimeout) and removes it.
const unavailable =
  podmanUnavailable() ??
  (spawnSync('gcc', ['--version']).status === 0
    ? undefined
    : 'gcc (to compile the FROM-scratch server) is not installed');

// Answers every request with GREETING, on PORT, both from the container's environment.
const SERVER_C = `
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
  const char *greeting = getenv("GREETING");
  int server = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in address = {0};
  address.sin_family = AF_INET;
  address.sin_port = htons(atoi(getenv("PORT")));
  if (bind(server, (struct sockaddr *)&address, sizeof address) != 0) return 2;
  listen(server, 16);
  for (;;) {
    int client = accept(server, 0, 0);
    char request[4096], response[512];
    if (read(client, request, sizeof request) < 0) return 3;
    int length = snprintf(response, sizeof response,
      "HTTP/1.1 200 OK\\r\\nContent-Length: %zu\\r\\nConnection: close\\r\\n\\r\\n%s", strlen(greeting), greeting);
    if (write(client, response, length) < 0) return 4;
    close(client);
  }
}
`;

let work: string;
let engine: string;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function app(port: number): string {
  const imageDir = join(work, 'image');
  return synthesizeApp((cdk) => {
    const stack = new Stack(cdk, 'EngineSvc');
    const cluster = new Cluster(stack, 'Cluster', {
      vpc: new Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }),
    });
    const task = new FargateTaskDefinition(stack, 'Task');
    task.addContainer('web', {
      image: ContainerImage.fromAsset(imageDir),
      portMappings: [{ containerPort: port }],
      environment: { PORT: String(port), GREETING: 'hello from the task' },
      stopTimeout: Duration.seconds(2),
    });
    new FargateService(stack, 'Web', { cluster, taskDefinition: task });
  });
}

async function get(url: string, ms: number): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(5_000) });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const containers = () => containerNames(engine, 'cdkd-');

describe.skipIf(unavailable !== undefined)(
  `cdkd local start-service with podman${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    beforeAll(() => {
      work = tempDir();
      const imageDir = join(work, 'image');
      mkdirSync(imageDir);
      writeFileSync(join(work, 'server.c'), SERVER_C);
      execFileSync('gcc', ['-static', '-O2', '-o', join(imageDir, 'server'), join(work, 'server.c')]);
      writeFileSync(
        join(imageDir, 'Dockerfile'),
        'FROM scratch\nCOPY server /server\nENTRYPOINT ["/server"]\n',
      );
      engine = podmanOnRunc(work);
    });
    afterAll(() => settleContainers(work), 120_000);

    let server: ReturnType<typeof startCli> | undefined;
    afterEach(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.done;
      }
      // What a failed test left running (its shared-memory mount would keep the temp dir).
      if (containers().length > 0) execFileSync(engine, ['rm', '-f', ...containers()]);
    });

    it("builds the task's image, runs it with its environment and port, and removes it on Ctrl-C", async () => {
      const port = await freePort();
      server = startCli(['local', 'start-service', '--no-deployed', '-a', app(port)], 'Running;', {
        env: { CDK_DOCKER: engine, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' },
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        server.creating,
        server.done.then((code) => {
          throw new Error(`start-service exited with ${code}: ${server!.stderr()}`);
        }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`start-service did not start:\n${server!.stderr()}`)),
            180_000,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      const answer = await get(`http://127.0.0.1:${port}/`, 60_000);
      expect(answer.status, server.stderr()).toBe(200);
      expect(await answer.text()).toBe('hello from the task');
      expect(containers()).toHaveLength(1);

      // The server is its container's PID 1 without a SIGTERM handler: it ignores the SIGTERM,
      // and is killed once its StopTimeout has passed, as ECS stops it.
      server.child.kill('SIGINT');
      expect(await server.done, server.stderr()).toBe(0);
      expect(server.stderr()).toMatch(
        /Container cdkd-EngineSvc-Web-web-\d+-1 did not stop within 2s of SIGTERM/,
      );
      expect(containers()).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    }, 300_000);
  },
);

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeregisterTaskDefinitionCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
} from '@aws-sdk/client-ecs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cloudControlCalls } from './cloudcontrol-calls.js';
import { cloudControlClient } from './helpers.js';

// ECS never hands a family's revision number out twice, across restarts of the sandbox on its
// data dir and after the revision is deregistered (ECS API) or deleted (Cloud Control).
const CONTAINERS = [{ name: 'web', image: 'nginx:1.25', memory: 128 }];

interface Running {
  register(family: string): Promise<number>;
  deregister(family: string, revision: number): Promise<void>;
  ccCreate(family: string): Promise<string>;
  ccDelete(arn: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A sandbox as a new process starts it, its modules loaded afresh so nothing is kept in memory;
 * `beside` starts one in the process of the last.
 */
async function start(dataDir?: string, { beside = false } = {}): Promise<Running> {
  if (!beside) vi.resetModules();
  const { startSandbox } = await import('../../src/sandbox/server.js');
  const sandbox = await startSandbox({ port: 0, ...(dataDir ? { dataDir } : {}) });
  const ecs = new ECSClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  const cc = cloudControlClient(sandbox);
  const calls = cloudControlCalls(() => cc);
  return {
    async register(family) {
      const answer = await ecs.send(
        new RegisterTaskDefinitionCommand({ family, containerDefinitions: CONTAINERS }),
      );
      return answer.taskDefinition!.revision!;
    },
    async deregister(family, revision) {
      await ecs.send(new DeregisterTaskDefinitionCommand({ taskDefinition: `${family}:${revision}` }));
    },
    async ccCreate(family) {
      const event = await calls.create('AWS::ECS::TaskDefinition', {
        Family: family,
        ContainerDefinitions: [{ Name: 'web', Image: 'nginx:1.25', Memory: 128 }],
      });
      expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
      return event.Identifier!;
    },
    async ccDelete(arn) {
      expect((await calls.remove('AWS::ECS::TaskDefinition', arn)).OperationStatus).toBe('SUCCESS');
    },
    async stop() {
      ecs.destroy();
      cc.destroy();
      await sandbox.stop();
    },
  };
}

describe('task definition revisions', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cdkd-sandbox-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('carry on after a restart on the same data dir, even past deregistered and deleted ones', async () => {
    const first = await start(dataDir);
    expect(await first.register('web')).toBe(1);
    expect(await first.register('web')).toBe(2);
    expect(await first.register('worker')).toBe(1);
    await first.stop();

    const second = await start(dataDir);
    expect(await second.register('web')).toBe(3);
    await second.deregister('web', 3);
    await second.deregister('web', 2);
    const viaCc = await second.ccCreate('web');
    expect(viaCc).toMatch(/:task-definition\/web:4$/);
    await second.ccDelete(viaCc);
    await second.stop();

    const third = await start(dataDir);
    expect(await third.register('web')).toBe(5);
    expect(await third.ccCreate('worker')).toMatch(/:task-definition\/worker:2$/);
    await third.stop();
  });

  it('are counted per sandbox: another in the same process starts its families at 1', async () => {
    const first = await start(dataDir);
    expect(await first.register('shared-name')).toBe(1);
    expect(await first.register('shared-name')).toBe(2);
    const other = await start(undefined, { beside: true });
    try {
      expect(await other.register('shared-name')).toBe(1);
    } finally {
      await other.stop();
      await first.stop();
    }
  });

  it('continue after the task definitions a data dir holds when it kept no numbers, and keep them from then on', async () => {
    const first = await start(dataDir);
    expect(await first.register('old')).toBe(1);
    expect(await first.register('old')).toBe(2);
    await first.stop();
    // A data dir an older sandbox wrote holds the task definitions but no numbers.
    await rm(join(dataDir, 'cloudcontrol', 'task-definition-revisions'), { recursive: true });

    const second = await start(dataDir);
    await second.deregister('old', 2);
    await second.stop();

    const third = await start(dataDir);
    expect(await third.register('old')).toBe(3);
    await third.stop();
  });
});

import { tempDir, writeAssembly } from '../assembly/helpers.js';
import { startCli } from './cli.js';
import { sandboxEnv } from './sandbox.js';

async function faults(sandboxUrl: string, init: RequestInit): Promise<void> {
  await fetch(`${sandboxUrl}/_sandbox/faults`, { ...init, headers: { 'content-type': 'application/json' } });
}

/**
 * The built CLI deploying a stack of `queues` queues two at a time, each create held 300 ms
 * by the sandbox, killed with SIGKILL once `killAfter` creates have started.
 */
export async function killedQueueDeploy(
  sandboxUrl: string,
  stackName: string,
  shape: { queues: number; killAfter: number },
): Promise<void> {
  const dir = tempDir();
  const resources = Object.fromEntries(
    Array.from({ length: shape.queues }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue' }]),
  );
  writeAssembly(dir, [{ id: stackName, template: { Resources: resources } }]);
  await faults(sandboxUrl, {
    method: 'POST',
    body: JSON.stringify({ service: 'sqs', operation: 'CreateQueue', latencyMs: 300, every: true }),
  });
  const run = startCli(['deploy', '-a', dir, '--concurrency', '2'], 'create started', {
    env: sandboxEnv(sandboxUrl),
    times: shape.killAfter,
  });
  await run.creating;
  run.child.kill('SIGKILL');
  await run.done;
  await faults(sandboxUrl, { method: 'DELETE' });
}

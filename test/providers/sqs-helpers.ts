import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { builtinServices } from '../../src/sandbox/services/index.js';
import { createSqsService, sqsService } from '../../src/sandbox/services/sqs/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { openStateBackend } from '../../src/state/state-backend.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { eventsTo } from '../helpers/recording-io-host.js';

export const ACCOUNT = '123456789012';

/** A sandbox whose SQS name cooldown is `cooldownMs`, with the SDK env pointed at it. */
export async function startProviderSandbox(cooldownMs = 0): Promise<Sandbox> {
  const services = builtinServices.filter((factory) => factory !== createSqsService);
  const sandbox = await startSandbox({
    port: 0,
    accountId: ACCOUNT,
    services: [...services, sqsService({ deleteCooldownMs: cooldownMs })],
  });
  Object.assign(process.env, sandboxEnv(sandbox.url));
  delete process.env.AWS_PROFILE;
  return sandbox;
}

export function providerContext(stackName = 'Test'): ProviderContext {
  return {
    clients: new AwsClients({ region: 'us-east-1' }),
    accountId: ACCOUNT,
    region: 'us-east-1',
    stackName,
  };
}

/** An engine whose registry has `register`'s SDK providers, state in a sandbox bucket. */
export async function engineWith(
  register: (registry: ProviderRegistry) => ProviderRegistry,
  bucket: string,
): Promise<Engine> {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: bucket }));
  const backend = await openStateBackend(clients, bucket, 'cdkd');
  return createEngine({
    backend,
    clients,
    registry: register(new ProviderRegistry(new CloudControlProvider())),
    io: eventsTo(() => undefined),
    command: 'deploy',
    regions: ['us-east-1'],
  });
}

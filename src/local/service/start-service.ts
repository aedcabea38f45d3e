import { spawn, type ChildProcess } from 'node:child_process';
import type { CloudAssembly } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { containerName, containerRunCommand, findContainerEngine } from './engine-command.js';
import { ImageBuilder } from './image-builder.js';
import { findService, type LocalService, type PortMapping } from './service-model.js';
import type { DeployedSecretsReader } from './service-secrets.js';

export interface StartServiceInput {
  assembly: CloudAssembly;
  /** `[stack]/[service]`; default: the app's only ECS service. */
  target?: string;
  /** Reads the deployed stack's secrets; absent (--no-deployed): a service with secrets is refused. */
  deployedSecrets?: DeployedSecretsReader;
  env?: NodeJS.ProcessEnv;
  onLog: (line: string) => void;
  onInfo: (message: string) => void;
  onVerbose: (message: string) => void;
}

export interface RunningService {
  service: LocalService;
  engine: string;
  ports: PortMapping[];
  /** Resolves with the exit code when an essential container stops (the task stops with it). */
  stopped: Promise<number | null>;
  close(): Promise<void>;
}

/**
 * `cdkd local start-service`: the service's task definition run with the container engine,
 * one container per definition, image assets built first; secrets' values come from the
 * deployed stack (names only in the process list), and a service with secrets is refused
 * when they cannot be read.
 */
export async function startService(input: StartServiceInput): Promise<RunningService> {
  const env = input.env ?? process.env;
  const service = findService(input.assembly.stacks, input.target);
  const engine = findContainerEngine(env);
  const secretValues = await secretsOf(service, input.deployedSecrets);
  const builder = new ImageBuilder(engine, service.stack.displayName, input);
  const images = new Map<string, Promise<string>>();
  const imageOf = (container: LocalService['containers'][number]): Promise<string> => {
    if (container.image.kind === 'registry') return Promise.resolve(container.image.image);
    const { asset } = container.image;
    let built = images.get(asset.hash);
    if (!built) images.set(asset.hash, (built = builder.build(asset)));
    return built;
  };
  const ports = service.containers.flatMap((container) => container.portMappings);
  const children: ChildProcess[] = [];
  let first: string | undefined;
  let stop: (code: number | null) => void = () => undefined;
  const stopped = new Promise<number | null>((resolve) => (stop = resolve));
  for (const container of service.containers) {
    const image = await imageOf(container);
    const name = containerName(service.stack.displayName, service.name, container.name, process.pid);
    const command = containerRunCommand({
      container,
      image,
      name,
      ...(first ? { networkOf: first } : {}),
      ports: first ? [] : ports,
      secretValues: Object.fromEntries(
        container.secrets.map((secret) => [secret.name, secretValues[secret.name]!]),
      ),
    });
    first ??= name;
    input.onInfo(`Starting container ${container.name}: ${engine} ${command.args.join(' ')}`);
    const child = spawn(engine, command.args, {
      env: { ...env, ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') input.onLog(`${container.name} | ${line}`);
      });
    child.on('error', (cause) => {
      input.onLog(`${container.name} | ${engine} failed to start: ${cause.message}`);
      stop(1);
    });
    child.on('close', (code) => {
      input.onLog(`${container.name} | exited with code ${code}`);
      if (container.essential) stop(code);
    });
  }
  return {
    service,
    engine,
    ports,
    stopped,
    close: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('close', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

async function secretsOf(
  service: LocalService,
  reader: DeployedSecretsReader | undefined,
): Promise<Record<string, string>> {
  const names = service.containers.flatMap((container) => container.secrets.map((secret) => secret.name));
  if (names.length === 0) return {};
  const values = reader ? await reader(service) : undefined;
  if (values) return values;
  throw new CdkdError(
    'LOCAL_SERVICE_SECRETS_UNAVAILABLE',
    `ECS service ${service.stack.displayName}/${service.name} takes secrets (${names.join(', ')}) whose values exist only in the deployed stack, and ${reader ? 'the stack is not deployed' : '--no-deployed keeps the deployed stack out'}.`,
    {
      hint: reader
        ? 'Deploy the stack (cdkd deploy) so its secrets exist, then run cdkd local start-service again.'
        : 'Run without --no-deployed, after deploying the stack.',
    },
  );
}

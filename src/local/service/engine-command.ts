import { CdkdError } from '../../errors.js';
import { chooseContainerEngine, isOnPath } from '../../container-engine.js';
import type { PortMapping, ServiceContainer } from './service-model.js';

/**
 * The container engine: CDK_DOCKER as the CDK CLI reads it, else docker, else podman, the
 * first on the PATH (`onPath` tells); none is LOCAL_CONTAINER_ENGINE_MISSING.
 */
export function findContainerEngine(
  env: NodeJS.ProcessEnv,
  onPath: (program: string) => boolean = (program) => isOnPath(program, env),
): string {
  const choice = chooseContainerEngine(env, onPath);
  if ('engine' in choice) return choice.engine;
  if (choice.missing === 'cdk-docker') {
    throw new CdkdError(
      'LOCAL_CONTAINER_ENGINE_MISSING',
      `CDK_DOCKER names the container engine "${choice.named}", which is not on the PATH.`,
      {
        hint: 'Set CDK_DOCKER to the name or path of a Docker-compatible CLI (docker, podman, finch), or unset it.',
      },
    );
  }
  throw new CdkdError(
    'LOCAL_CONTAINER_ENGINE_MISSING',
    'cdkd local start-service needs a container engine, and neither docker nor podman is on the PATH.',
    { hint: 'Install Docker or podman, or set CDK_DOCKER to a Docker-compatible CLI.' },
  );
}

export interface ContainerRunInput {
  container: ServiceContainer;
  /** The image to run (a registry image, or the local tag an asset was built under). */
  image: string;
  /** The engine's name for the container. */
  name: string;
  /** The task's first container, whose network the others join (awsvpc: one network namespace per task). */
  networkOf?: string;
  /** Every port mapping of the task, published on the first container. */
  ports: readonly PortMapping[];
  /** The secrets' values, by name; passed like the environment. */
  secretValues: Readonly<Record<string, string>>;
}

/**
 * `<engine> run` for one container of the task: ports published on the loopback
 * (`-p 127.0.0.1:host:container/proto`) by the task's first container, the others joining
 * its network as the containers of an awsvpc task share one; variables and secrets passed
 * by name (`-e NAME`) with their values in the engine's environment, so no value shows in
 * the process list; the entry point's first word as `--entrypoint`, the rest before the
 * command, as ECS runs them.
 */
export function containerRunCommand(input: ContainerRunInput): {
  args: string[];
  env: Record<string, string>;
} {
  const { container } = input;
  const env = { ...container.environment, ...input.secretValues };
  const [entry, ...entryRest] = container.entryPoint ?? [];
  return {
    args: [
      'run',
      '--rm',
      '--name',
      input.name,
      ...(input.networkOf
        ? ['--network', `container:${input.networkOf}`]
        : input.ports.flatMap((port) => [
            '-p',
            `127.0.0.1:${port.hostPort}:${port.containerPort}/${port.protocol}`,
          ])),
      ...Object.keys(env)
        .sort()
        .flatMap((name) => ['-e', name]),
      ...(container.workingDirectory ? ['-w', container.workingDirectory] : []),
      ...(container.user ? ['-u', container.user] : []),
      ...(entry !== undefined ? ['--entrypoint', entry] : []),
      input.image,
      ...entryRest,
      ...(container.command ?? []),
    ],
    env,
  };
}

/**
 * Container names the engine accepts: the stack, the service and the container, made safe,
 * then this process and the task's number (each task started, replicas and replacements, has its own).
 */
export function containerName(
  stack: string,
  service: string,
  container: string,
  pid: number,
  task: number,
): string {
  return `${containerNamePrefix(stack, service, container)}${pid}-${task}`;
}

/** What every name `containerName` gives a container of the service starts with, before the pid. */
export function containerNamePrefix(stack: string, service: string, container: string): string {
  return `cdkd-${stack}-${service}-${container}-`.replace(/[^a-zA-Z0-9_.-]+/g, '-');
}

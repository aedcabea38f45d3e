import { spawn, type ChildProcess } from 'node:child_process';
import { containerRunCommand } from './engine-command.js';
import type { PortMapping, ServiceContainer } from './service-model.js';

export interface TaskInput {
  engine: string;
  env: NodeJS.ProcessEnv;
  containers: ReadonlyArray<{ container: ServiceContainer; image: string; name: string }>;
  /** The host ports this task publishes (on its first container). */
  ports: readonly PortMapping[];
  secretValues: Readonly<Record<string, string>>;
  /** Each line a container prints (and its exit), prefixed by the caller. */
  onLine: (container: string, line: string) => void;
  onInfo: (message: string) => void;
}

export interface RunningTask {
  /** Resolves once every container has exited: the essential container that stopped the task, and its code. */
  stopped: Promise<{ container: string; code: number | null }>;
  /** Stops every container of the task; resolves once they have exited. */
  stop(): Promise<void>;
}

/**
 * One task of the service: each container run with the engine (the first publishing the
 * ports, the others joining its network). As in ECS, when an essential container exits the
 * task stops: its other containers are stopped too; a non-essential one exits alone.
 */
export function runTask(input: TaskInput): RunningTask {
  const children: ChildProcess[] = [];
  let stopping: { container: string; code: number | null } | undefined;
  let ended: (why: { container: string; code: number | null }) => void = () => undefined;
  const exits: Array<Promise<void>> = [];
  const killTimers: NodeJS.Timeout[] = [];
  // As ECS stops a container: SIGTERM (the engine's client passes it on), then, if it is still
  // running after its StopTimeout (a PID 1 without a handler ignores SIGTERM), the engine kills it.
  const stopAll = () => {
    children.forEach((child, index) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const { container, name } = input.containers[index]!;
      const timer = setTimeout(() => {
        input.onInfo(
          `Container ${name} did not stop within ${container.stopTimeoutSeconds}s of SIGTERM (its StopTimeout); killing it, as ECS does.`,
        );
        spawn(input.engine, ['kill', name], { env: input.env, stdio: 'ignore' }).on('error', () => undefined);
      }, container.stopTimeoutSeconds * 1000);
      killTimers.push(timer);
      child.once('close', () => clearTimeout(timer));
    });
  };
  const first = input.containers[0]?.name;
  for (const { container, image, name } of input.containers) {
    const command = containerRunCommand({
      container,
      image,
      name,
      ...(name !== first && first ? { networkOf: first } : {}),
      ports: name === first ? input.ports : [],
      secretValues: Object.fromEntries(
        container.secrets.map((secret) => [secret.name, input.secretValues[secret.name]!]),
      ),
    });
    input.onInfo(`Starting container ${name}: ${input.engine} ${command.args.join(' ')}`);
    const child = spawn(input.engine, command.args, {
      env: { ...input.env, ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') input.onLine(container.name, line);
      });
    const exited = (code: number | null) => {
      if (!container.essential || stopping) return;
      stopping = { container: container.name, code };
      stopAll();
    };
    exits.push(
      new Promise<void>((resolve) => {
        child.on('error', (cause) => {
          input.onLine(container.name, `${input.engine} failed to start: ${cause.message}`);
          exited(1);
          resolve();
        });
        child.on('close', (code) => {
          input.onLine(container.name, `exited with code ${code}`);
          exited(code);
          resolve();
        });
      }),
    );
  }
  const stopped = new Promise<{ container: string; code: number | null }>((resolve) => (ended = resolve));
  void Promise.all(exits).then(() => {
    for (const timer of killTimers) clearTimeout(timer);
    ended(stopping ?? { container: first ?? '', code: 0 });
  });
  return {
    stopped,
    stop: async () => {
      stopping ??= { container: first ?? '', code: null };
      stopAll();
      await stopped;
    },
  };
}

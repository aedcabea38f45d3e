import type { CloudAssembly } from '../../assembly/index.js';
import { CdkdError } from '../../errors.js';
import { containerName, findContainerEngine } from './engine-command.js';
import { ImageBuilder } from './image-builder.js';
import { removeLeftoverTasks } from './leftover-tasks.js';
import { desiredCount, replicaPorts, restartDelayMs, STEADY_RUN_MS } from './replicas.js';
import { findService, type LocalService, type PortMapping } from './service-model.js';
import type { DeployedSecretsReader } from './service-secrets.js';
import { runTask, type RunningTask } from './service-task.js';

export interface StartServiceInput {
  assembly: CloudAssembly;
  /** `[stack]/[service]`; default: the app's only ECS service. */
  target?: string;
  /** Reads the deployed stack's secrets; absent (--no-deployed): a service with secrets is refused. */
  deployedSecrets?: DeployedSecretsReader;
  /** How many tasks to run; default: the service's DesiredCount (1 when the template holds none). */
  replicas?: number;
  /** false (--no-restart): a stopped task is not replaced. */
  restart?: boolean;
  env?: NodeJS.ProcessEnv;
  onLog: (line: string) => void;
  onInfo: (message: string) => void;
  onVerbose: (message: string) => void;
}

export interface RunningService {
  service: LocalService;
  engine: string;
  /** The host ports of each replica. */
  ports: PortMapping[][];
  /**
   * Resolves once no task runs and none will be started again (with --no-restart, once each
   * has stopped): the code of the first essential container that exited with one, else 0.
   */
  stopped: Promise<number | null>;
  /** The service as `assembly` holds it: when its task changed (an image asset's source, a setting), rebuilt and every task replaced. */
  reload(assembly: CloudAssembly): Promise<void>;
  /** Image assets built again and every task replaced (a change to an asset's directory). */
  rebuild(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `cdkd local start-service`: the service's task definition run with the container engine,
 * DesiredCount tasks (replicas.ts: their ports), image assets built first; secrets' values
 * come from the deployed stack (names only in the process list), and a service with
 * secrets is refused when they cannot be read. As the ECS service scheduler does, a task
 * whose essential container exits is replaced, after a delay growing with each stop in a row.
 */
export async function startService(input: StartServiceInput): Promise<RunningService> {
  const env = input.env ?? process.env;
  const engine = findContainerEngine(env);
  let service = findService(input.assembly.stacks, input.target);
  const builder = new ImageBuilder(engine, service.stack.displayName, input);
  let plan = await planOf(service);
  // Once the service is known to be runnable, before its tasks claim their ports.
  await removeLeftoverTasks({ engine, env, service, onInfo: input.onInfo });
  let tasksStarted = 0;
  let closing = false;
  let firstFailure: number | null | undefined;
  let replacing = false;
  let live = 0;
  let ended: (code: number | null) => void = () => undefined;
  const stopped = new Promise<number | null>((resolve) => (ended = resolve));
  const slots: Array<Promise<void>> = [];
  const running = new Set<RunningTask>();
  let wake: () => void = () => undefined;
  let woken = new Promise<void>((resolve) => (wake = resolve));

  async function planOf(of: LocalService) {
    const replicas = input.replicas ?? desiredCount(of.desiredCount);
    const ports = replicaPorts(
      of.containers.flatMap((container) => container.portMappings),
      replicas,
      `${of.stack.displayName}/${of.name}`,
    );
    const secretValues = await secretsOf(of, input.deployedSecrets);
    const images = new Map<string, string>();
    for (const container of of.containers) {
      if (container.image.kind === 'registry') continue;
      const { asset } = container.image;
      if (!images.has(asset.hash)) images.set(asset.hash, await builder.build(asset));
    }
    return { service: of, replicas, ports, secretValues, images, key: JSON.stringify(of.containers) };
  }

  /** One replica: a task, and while the service runs, a new one each time it stops. */
  async function slot(replica: number, current: typeof plan): Promise<void> {
    let stopsInARow = 0;
    while (!closing && plan === current) {
      const started = Date.now();
      const task = (tasksStarted += 1);
      const of = current.service;
      const name = (container: string) =>
        containerName(of.stack.displayName, of.name, container, process.pid, task);
      const running$ = runTask({
        engine,
        env,
        containers: of.containers.map((container) => ({
          container,
          name: name(container.name),
          image:
            container.image.kind === 'registry'
              ? container.image.image
              : current.images.get(container.image.asset.hash)!,
        })),
        ports: current.ports[replica]!,
        secretValues: current.secretValues,
        onLine: (container, line) => input.onLog(`${container}#${task} | ${line}`),
        onInfo: input.onInfo,
      });
      running.add(running$);
      const why = await running$.stopped;
      running.delete(running$);
      if (closing || plan !== current) return;
      if (why.code !== 0 && firstFailure === undefined) firstFailure = why.code;
      if (input.restart === false) {
        input.onInfo(
          `Task ${task} stopped: its essential container ${why.container} exited with code ${why.code}; --no-restart: not replaced.`,
        );
        return;
      }
      stopsInARow = Date.now() - started >= STEADY_RUN_MS ? 1 : stopsInARow + 1;
      const delay = restartDelayMs(stopsInARow);
      input.onInfo(
        `Task ${task} stopped: its essential container ${why.container} exited with code ${why.code}; starting a new task in ${delay / 1000}s, as the ECS service scheduler replaces a stopped task.`,
      );
      await Promise.race([new Promise((resolve) => setTimeout(resolve, delay)), woken]);
    }
  }

  const startSlots = () => {
    for (let replica = 0; replica < plan.replicas; replica++) {
      live += 1;
      slots.push(
        slot(replica, plan).finally(() => {
          live -= 1;
          // No task left and none coming: with --no-restart each has stopped, or the service was closed.
          if (live === 0 && !replacing) ended(firstFailure ?? 0);
        }),
      );
    }
  };

  /** Stops every task of the plan that ran, then runs `next`'s. */
  async function replace(next: typeof plan): Promise<void> {
    const previous = slots.splice(0);
    replacing = true;
    plan = next;
    wake();
    woken = new Promise<void>((resolve) => (wake = resolve));
    await Promise.all([...running].map((task) => task.stop()));
    await Promise.all(previous);
    replacing = false;
    if (closing) return;
    input.onInfo(
      `Replacing the tasks of ECS service ${next.service.stack.displayName}/${next.service.name}.`,
    );
    startSlots();
  }

  startSlots();
  if (plan.replicas === 0) ended(0);
  return {
    get service() {
      return service;
    },
    engine,
    get ports() {
      return plan.ports;
    },
    stopped,
    reload: async (assembly) => {
      const next = findService(assembly.stacks, input.target);
      if (JSON.stringify(next.containers) === plan.key && next.desiredCount === service.desiredCount) return;
      const nextPlan = await planOf(next);
      service = next;
      await replace(nextPlan);
    },
    rebuild: async () => {
      await replace(await planOf(service));
    },
    close: async () => {
      closing = true;
      wake();
      await Promise.all([...running].map((task) => task.stop()));
      await Promise.all(slots);
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

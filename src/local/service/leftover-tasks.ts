import {
  leftoverContainers,
  listContainers,
  removeContainers,
  type OwnedContainer,
} from '../../leftover-containers.js';
import { containerNamePrefix } from './engine-command.js';
import type { LocalService } from './service-model.js';

/**
 * Containers of this service that an earlier `cdkd local start-service` left running because
 * it was killed before it could stop them (SIGKILL, a crash): `--rm` removes a container only
 * once it exits, and they would hold the host ports the new tasks publish. Ours by their names
 * (containerName: the service's prefix, the pid of the cdkd that ran them, the task's number);
 * removed only when that cdkd no longer runs, so another start-service's tasks are left alone.
 */
export async function removeLeftoverTasks(input: {
  engine: string;
  env: NodeJS.ProcessEnv;
  service: LocalService;
  onInfo: (message: string) => void;
}): Promise<void> {
  const { service } = input;
  const prefixes = service.containers.map((container) =>
    containerNamePrefix(service.stack.displayName, service.name, container.name),
  );
  let listed: string[];
  try {
    listed = await listContainers(input.engine, input.env, 'name=cdkd-', '{{.Names}}');
  } catch (error) {
    input.onInfo(
      `Could not list containers left by an earlier start-service (${input.engine} ps: ${error instanceof Error ? error.message : String(error)}); going on.`,
    );
    return;
  }
  const leftover = leftoverContainers(listed.flatMap((name) => ownedTask(name, prefixes)));
  if (leftover.length === 0) return;
  input.onInfo(
    `Removing ${leftover.length} container(s) an earlier cdkd local start-service of ${service.stack.displayName}/${service.name} left running: ${leftover.join(', ')}.`,
  );
  await removeContainers(input.engine, input.env, leftover).catch((error: unknown) =>
    input.onInfo(
      `Could not remove them (${error instanceof Error ? error.message : String(error)}); a task publishing a port they hold will fail to start.`,
    ),
  );
}

/** A task container of the service, with the pid its name holds after the service's prefix. */
function ownedTask(name: string, prefixes: readonly string[]): OwnedContainer[] {
  for (const prefix of prefixes) {
    const match = name.startsWith(prefix) ? /^(\d+)-\d+$/.exec(name.slice(prefix.length)) : null;
    if (match) return [{ name, pid: Number(match[1]) }];
  }
  return [];
}

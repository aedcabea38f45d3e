import {
  leftoverContainers,
  listContainers,
  type OwnedContainer,
} from '../../../../../leftover-containers.js';
import { removeContainer } from './image-container.js';
import { CONTAINER_PREFIX, SANDBOX_PID_LABEL } from './image-engine.js';

/** A `ps` line per labelled container: its name, a tab, its labels. */
const LIST_FORMAT = '{{.Names}}\t{{.Labels}}';

/** The pid label as the engines print labels: Docker `k=v,k=v`, podman `map[k:v k:v]`. */
const PID_LABEL = new RegExp(
  `(?:^|[\\s,[])${SANDBOX_PID_LABEL.replaceAll('.', '\\.')}[=:](\\d+)(?=$|[\\s,\\]])`,
);

/** The image functions' containers among `ps` lines (LIST_FORMAT), each with the pid of the sandbox that ran it. */
export function sandboxContainers(lines: readonly string[]): OwnedContainer[] {
  return lines.flatMap((line) => {
    const [name = '', labels = ''] = line.split('\t');
    const pid = PID_LABEL.exec(labels)?.[1];
    return name.startsWith(CONTAINER_PREFIX) && pid !== undefined ? [{ name, pid: Number(pid) }] : [];
  });
}

/**
 * Removes the image functions' containers that a sandbox killed before it could remove them
 * left running (SIGKILL skips the exit hook, and the engine keeps a container running after
 * its `run` client is gone): those whose sandbox's pid no longer runs, so the containers of
 * another sandbox on this machine are left alone. Says what it did, or could not, in `log`.
 */
export async function removeLeftoverContainers(engine: string, log: (line: string) => void): Promise<void> {
  let lines: string[];
  try {
    lines = await listContainers(engine, process.env, `label=${SANDBOX_PID_LABEL}`, LIST_FORMAT);
  } catch (error) {
    log(
      `Could not list the image function containers a killed sandbox may have left (${engine} ps: ${error instanceof Error ? error.message : String(error)}); going on.`,
    );
    return;
  }
  const leftover = leftoverContainers(sandboxContainers(lines));
  if (leftover.length === 0) return;
  log(
    `Removing ${leftover.length} image function container(s) left by a sandbox that no longer runs: ${leftover.join(', ')}.`,
  );
  await Promise.all(leftover.map((name) => removeContainer(engine, name)));
}

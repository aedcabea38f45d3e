import {
  leftoverContainers,
  listContainers,
  removeContainers,
  type OwnedContainer,
} from '../leftover-containers.js';

/** `cdkd-local-<pid of the cdkd that ran it>-<host port>`: how `--container` names an invocation's container. */
export const INVOCATION_PREFIX = 'cdkd-local-';

/** An invocation's container, with the pid its name holds; none for another container's name. */
export function ownedInvocation(name: string): OwnedContainer[] {
  const match = /^cdkd-local-(\d+)-\d+$/.exec(name);
  return match ? [{ name, pid: Number(match[1]) }] : [];
}

const swept = new Map<string, Promise<void>>();

/**
 * Removes, once per process and engine, the invocation containers a `cdkd local` killed
 * mid-invocation left running (SIGKILL skips its removal, and `--rm` removes a container only
 * once it exits): those whose cdkd no longer runs, never another live cdkd's. An engine that
 * is missing is left to the run that follows to report; any other listing failure is logged.
 */
export function removeLeftoverInvocations(engine: string, log: (line: string) => void): Promise<void> {
  let sweep = swept.get(engine);
  if (!sweep) {
    sweep = sweepOnce(engine, log);
    swept.set(engine, sweep);
  }
  return sweep;
}

async function sweepOnce(engine: string, log: (line: string) => void): Promise<void> {
  let names: string[];
  try {
    names = await listContainers(engine, process.env, `name=${INVOCATION_PREFIX}`, '{{.Names}}');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    log(
      `Could not list containers an earlier cdkd local left (${engine} ps: ${error instanceof Error ? error.message : String(error)}); going on.`,
    );
    return;
  }
  const leftover = leftoverContainers(names.flatMap(ownedInvocation));
  if (leftover.length === 0) return;
  log(`Removing ${leftover.length} container(s) a killed cdkd local left running: ${leftover.join(', ')}.`);
  await removeContainers(engine, process.env, leftover).catch((error: unknown) =>
    log(`Could not remove them (${error instanceof Error ? error.message : String(error)}); going on.`),
  );
}

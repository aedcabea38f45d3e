import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// podman runs containers on these machines with runc and cgroupfs and no default ulimits (its
// default crun cannot: setrlimit, then "cgroups in hybrid mode not supported"). Tests run it
// through a wrapper given as CDK_DOCKER, its storage and settings in the test's own directory,
// so the machine's podman configuration is neither needed nor touched.
const RUNC = ['/usr/sbin/runc', '/usr/bin/runc'].find((path) => spawnSync(path, ['--version']).status === 0);

/** Why podman cannot run containers for a test here, or undefined when it can. */
export function podmanUnavailable(): string | undefined {
  const missing = [
    spawnSync('podman', ['--version']).status === 0 ? undefined : 'podman',
    RUNC ? undefined : 'runc',
  ].filter((what): what is string => what !== undefined);
  if (missing.length > 0) return `not installed: ${missing.join(', ')}; .ci/run installs them with apt`;
  if (process.getuid?.() !== 0) return 'podman with vfs storage and runc runs containers as root here';
  return undefined;
}

/** Writes the podman wrapper into `dir` and returns its path, for CDK_DOCKER. */
export function podmanOnRunc(dir: string): string {
  writeFileSync(join(dir, 'containers.conf'), '[containers]\ndefault_ulimits = []\n');
  const engine = join(dir, 'podman.sh');
  writeFileSync(
    engine,
    [
      '#!/bin/sh',
      `export CONTAINERS_CONF=${join(dir, 'containers.conf')}`,
      `exec podman --root ${join(dir, 'root')} --runroot ${join(dir, 'run')} --storage-driver vfs --runtime ${RUNC} --cgroup-manager cgroupfs "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(engine, 0o755);
  return engine;
}

/**
 * Removes every container of the wrapper in `dir` and waits until no podman process works on
 * its storage, before the test deletes it: podman finishes a `--rm` container's removal in the
 * background, and one cut short by its storage vanishing leaves the published port's DNAT rule
 * behind, sending that port to a dead address for whatever listens on it next (a later test's
 * sandbox, bound to the same ephemeral port, then refuses every connection).
 */
export async function settleContainers(dir: string): Promise<void> {
  spawnSync(join(dir, 'podman.sh'), ['rm', '--all', '--force', '--time', '0'], { stdio: 'ignore' });
  const root = join(dir, 'root');
  const deadline = Date.now() + 60_000;
  while (enginesOn(root).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The pids of the processes whose command line names `root` (podman, conmon, their cleanup). */
function enginesOn(root: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(root);
    } catch {
      return false;
    }
  });
}

/** The names of the containers `engine` holds whose names start with `prefix`. */
export function containerNames(engine: string, prefix: string): string[] {
  return execFileSync(engine, ['ps', '-a', '--format', '{{.Names}}'], { encoding: 'utf8' })
    .split('\n')
    .filter((name) => name.startsWith(prefix));
}

/**
 * Copies this machine's node and the shared libraries it loads into a build context, at the
 * same paths, so a FROM-scratch image runs `/usr/bin/node` (no base image can be pulled here).
 */
export function copyNodeInto(context: string): void {
  const libraries = execFileSync('ldd', [process.execPath], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => /(\/\S+) \(0x/.exec(line)?.slice(1, 2) ?? []);
  for (const [from, to] of [[process.execPath, '/usr/bin/node'], ...libraries.map((lib) => [lib, lib])]) {
    const target = join(context, to!);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(from!, target);
  }
}

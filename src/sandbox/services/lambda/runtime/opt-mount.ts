import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Launch } from '../../../../lambda-runtime/launch.js';

/**
 * A function's layers where its handler expects them, at /opt, as on Lambda: its process
 * starts in a mount namespace of its own (`unshare --mount`, inside a user namespace where
 * the sandbox is not root) with the merged layers bound read-only onto /opt, so nothing
 * changes for the rest of the machine. Layers built for Lambda also run Lambda's interpreters
 * by path (the AWS CLI layer's `#!/var/lang/bin/python`): where /var/lang does not exist,
 * /var is shown as it is plus `lang/bin/{python,python3,node}`.
 */

export type OptSupport = { available: true; unshare: string[] } | { available: false; reason: string };

/**
 * Run by `/bin/sh -c` inside the new namespace, then replaced by the runtime (`exec`). Few
 * processes on purpose: each costs a fork on every cold start. /var gains `lang/bin` through
 * an overlay whose upper layer is a tmpfs, so nothing reaches the machine's /var.
 */
const SETUP = [
  'fail() { echo "cdkd sandbox: cannot mount the function\'s layers at /opt: $1" >&2; exit 1; }',
  'opt=$1; scratch=$2; python=$3; node=$4; shift 4',
  'mount --bind "$opt" /opt || fail "mount --bind $opt /opt failed"',
  'mount -o remount,bind,ro /opt 2>/dev/null',
  'if [ ! -e /var/lang ] && [ -n "$scratch" ]; then',
  '  mount -t tmpfs cdkd-var "$scratch" && mkdir "$scratch/upper" "$scratch/work" "$scratch/upper/lang" "$scratch/upper/lang/bin" ||' +
    ' fail "mount -t tmpfs on $scratch failed"',
  '  ln -s "$node" "$scratch/upper/lang/bin/node"',
  '  if [ -n "$python" ]; then ln -s "$python" "$scratch/upper/lang/bin/python"; ln -s "$python" "$scratch/upper/lang/bin/python3"; fi',
  '  mount -t overlay cdkd-var -o "lowerdir=/var,upperdir=$scratch/upper,workdir=$scratch/work" /var || fail "mount -t overlay on /var failed"',
  'fi',
  'exec "$@"',
].join('\n');

let probed: OptSupport | undefined;

/** Whether this machine can give a process its own /opt, found out once. */
export function optSupport(): OptSupport {
  probed ??= probe();
  return probed;
}

function probe(): OptSupport {
  if (process.platform !== 'linux') {
    return {
      available: false,
      reason: `mount namespaces are a Linux feature and this machine runs ${process.platform}`,
    };
  }
  if (!existsSync('/opt')) {
    return {
      available: false,
      reason: 'the directory /opt does not exist on this machine (create it: mkdir /opt)',
    };
  }
  const attempts =
    process.getuid?.() === 0 ? [[], ['--user', '--map-root-user']] : [['--user', '--map-root-user']];
  let failure = '';
  for (const extra of attempts) {
    const unshare = [...extra, '--mount', '--propagation', 'private'];
    try {
      execFileSync('unshare', [...unshare, 'sh', '-c', 'mount -t tmpfs cdkd-probe /opt'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 10_000,
      });
      return { available: true, unshare };
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      failure = stderr || (error as Error).message;
    }
  }
  return {
    available: false,
    reason: `a mount namespace could not be made (${failure}); run the sandbox as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`,
  };
}

export interface OptLayout {
  /** The merged layers. */
  opt: string;
  /** Lambda's interpreters, linked from /var/lang/bin. */
  python: string | null;
  node: string;
  /** A directory of the sandbox's own to build /var's view in. */
  scratch: string;
}

/** The launch wrapped to run in its own mount namespace with /opt (and /var/lang) in place. */
export function withOpt(launch: Launch, unshare: readonly string[], layout: OptLayout): Launch {
  return {
    command: 'unshare',
    args: [
      ...unshare,
      '/bin/sh',
      '-c',
      SETUP,
      'cdkd-layers',
      layout.opt,
      scratchDirectory(layout.scratch) ?? '',
      layout.python ?? '',
      layout.node,
      launch.command,
      ...launch.args,
    ],
    env: { ...launch.env, PATH: `${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}:/opt/bin` },
  };
}

/**
 * Where the overlay's tmpfs is mounted: a directory of the sandbox's own outside /var (an
 * overlay's upper layer cannot sit inside its lower one), else one in the temp dir. Undefined
 * when there is none: /var/lang is then not made.
 */
function scratchDirectory(scratch: string): string | undefined {
  for (const candidate of [join(scratch, 'var-overlay'), join(tmpdir(), 'cdkd-sandbox-var-overlay')]) {
    try {
      mkdirSync(candidate, { recursive: true });
      const real = realpathSync(candidate);
      if (real !== '/var' && !real.startsWith('/var/')) return candidate;
    } catch {
      // Not writable here: try the next place.
    }
  }
  return undefined;
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Launch } from './launch.js';

/**
 * A function's layers where its handler expects them, at /opt, as on Lambda: its process
 * starts in a mount namespace of its own (`unshare --mount`, inside a user namespace where
 * the sandbox is not root) with the merged layers bound read-only onto /opt, so nothing
 * changes for the rest of the machine. Layers built for Lambda also run Lambda's interpreters
 * by path (the AWS CLI layer's `#!/var/lang/bin/python`): where /var/lang does not exist,
 * /var is shown with its entries as they are plus `lang/bin/{python,python3,node}`.
 */

export type OptSupport = { available: true; unshare: string[] } | { available: false; reason: string };

const SETUP = String.raw`
fail() { echo "cdkd sandbox: cannot mount the function's layers at /opt: $1" >&2; exit 1; }
opt=$1; stage=$2; python=$3; node=$4; shift 4
mount --bind "$opt" /opt || fail "mount --bind $opt /opt failed"
mount -o remount,bind,ro /opt 2>/dev/null || true
if [ ! -e /var/lang ] && [ -n "$stage" ]; then
  mount -t tmpfs -o mode=0755 cdkd-var "$stage" || fail "mount -t tmpfs on $stage failed"
  for entry in /var/* /var/.[!.]* /var/..?*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=$(basename "$entry")
    if [ -L "$entry" ]; then ln -s "$(readlink "$entry")" "$stage/$name"
    elif [ -d "$entry" ]; then mkdir "$stage/$name" && mount --rbind "$entry" "$stage/$name"
    else : > "$stage/$name" && mount --bind "$entry" "$stage/$name"
    fi || fail "cannot keep $entry in place"
  done
  mkdir -p "$stage/lang/bin"
  if [ -n "$python" ]; then ln -s "$python" "$stage/lang/bin/python"; ln -s "$python" "$stage/lang/bin/python3"; fi
  ln -s "$node" "$stage/lang/bin/node"
  mount --move "$stage" /var || fail "mount --move $stage /var failed"
fi
exec "$@"
`;

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
      stageDirectory(layout.scratch) ?? '',
      layout.python ?? '',
      layout.node,
      launch.command,
      ...launch.args,
    ],
    env: { ...launch.env, PATH: `${process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}:/opt/bin` },
  };
}

/**
 * Where /var's new view is put together before it moves onto /var: a directory outside /var
 * (whose entries are bound into it). Undefined when there is none: /var/lang is then not made.
 */
function stageDirectory(scratch: string): string | undefined {
  const underVar = (path: string): boolean => {
    try {
      const real = realpathSync(path);
      return real === '/var' || real.startsWith('/var/');
    } catch {
      return true;
    }
  };
  if (!underVar('/tmp')) return '/tmp';
  const own = join(scratch, 'var-view');
  mkdirSync(own, { recursive: true });
  return underVar(own) ? undefined : own;
}

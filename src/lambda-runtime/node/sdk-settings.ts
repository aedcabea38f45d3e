import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SdkSettings } from './sdk-cache.js';

/** The `@aws-sdk` folder of the node_modules the sandbox resolves its own SDK from. */
export function findSdkDirectory(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', '@aws-sdk');
    if (existsSync(join(candidate, 'client-s3'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Where installed SDK packages are kept unless the sandbox is told: `CDKD_SANDBOX_SDK_CACHE`,
 * else the user's cache folder, shared by every sandbox on the machine.
 */
export function defaultSdkCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CDKD_SANDBOX_SDK_CACHE) return env.CDKD_SANDBOX_SDK_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cdkd', 'aws-sdk-js-v3');
}

/**
 * What a function's process needs to install an SDK package the sandbox does not ship: the
 * sandbox's own SDK release (its newest client) as the ceiling, its `@aws-sdk/core` and
 * `@smithy/core` as exact pins so a cached client runs on the same shared stack, and npm.
 * Undefined when the sandbox finds no SDK of its own.
 */
export function sdkSettings(cacheDir: string, env: NodeJS.ProcessEnv = process.env): SdkSettings | undefined {
  const sdk = findSdkDirectory();
  if (!sdk) return undefined;
  const clients = readdirSync(sdk)
    .filter((name) => name.startsWith('client-'))
    .map((name) => versionOf(join(sdk, name)))
    .filter((version): version is string => version !== undefined);
  const release = clients.sort(compareVersions).at(-1);
  if (!release) return undefined;
  const pins: Record<string, string> = {};
  for (const [name, folder] of [
    ['@aws-sdk/core', join(sdk, 'core')],
    ['@smithy/core', join(sdk, '..', '@smithy', 'core')],
  ] as const) {
    const version = versionOf(folder);
    if (version) pins[name] = version;
  }
  return { cacheDir, release, pins, npm: npmCommand(env) };
}

function versionOf(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let at = 0; at < 3; at += 1) {
    const difference = (left[at] ?? 0) - (right[at] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** What npm reads from the environment: home (its config and cache), registry and proxy settings. */
const NPM_VARIABLE =
  /^(HOME|USERPROFILE|APPDATA|NODE_EXTRA_CA_CERTS|(https?|no)_proxy|npm_config_(registry|cache|userconfig|proxy|https_proxy|noproxy|strict_ssl|cafile|ca|@[^_]+:registry))$/i;

/**
 * npm as the Node.js running the sandbox ships it (npm-cli.js beside it), else `npm` on PATH;
 * with only the variables npm needs (a project's `npm_config_prefix` must not redirect it).
 */
function npmCommand(env: NodeJS.ProcessEnv): SdkSettings['npm'] {
  const npmEnv: Record<string, string> = { PATH: env.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && NPM_VARIABLE.test(key)) npmEnv[key] = value;
  }
  const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return existsSync(bundled)
    ? { command: process.execPath, args: [bundled], env: npmEnv }
    : { command: 'npm', args: [], env: npmEnv };
}

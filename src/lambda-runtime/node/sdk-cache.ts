import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Clients of the AWS SDK for JavaScript v3 beyond the ones the sandbox ships, installed on
 * first use as Lambda's Node.js runtime has them all: what a function's child process needs
 * to install one, handed to it by the sandbox (sdk-settings.ts).
 */
export interface SdkSettings {
  /** Where installed packages are kept, one folder per release and package. */
  cacheDir: string;
  /** The newest release of the SDK the sandbox itself uses: a package is installed at or below it. */
  release: string;
  /** Exact versions for the shared stack (`@aws-sdk/core`, `@smithy/core`): the sandbox's own. */
  pins: Record<string, string>;
  /** How to run npm: a command, the arguments before npm's own, and npm's environment. */
  npm: { command: string; args: string[]; env: Record<string, string> };
}

/** The variable that carries the settings into a function's process (removed before its code loads). */
export const SDK_SETTINGS_VARIABLE = 'CDKD_SANDBOX_SDK';

/** How long one install may take before it counts as failed. */
const INSTALL_TIMEOUT_MS = 180_000;

/** A staging folder older than this was left by a killed install: removed by the next one. */
const ABANDONED_AFTER_MS = 60 * 60_000;

const PARTIAL = '.partial';

/** `@aws-sdk/client-connect` for `@aws-sdk/client-connect/dist-cjs/x`; undefined for any other package. */
export function sdkPackageOf(specifier: string): string | undefined {
  return /^(@aws-sdk\/[a-z0-9][a-z0-9._-]*)(\/|$)/.exec(specifier)?.[1];
}

/** The folder a package is installed in: its `node_modules` holds it and what it needs. */
export function installFolder(settings: SdkSettings, name: string): string {
  return join(settings.cacheDir, settings.release, name.slice(name.indexOf('/') + 1));
}

export type InstallOutcome = { ok: true; folder: string } | { ok: false; problem: string };

/**
 * Installs `name` (an `@aws-sdk/*` package) into the cache unless it is there, and returns its
 * folder. npm installs into a staging folder that is renamed into place whole, so a process
 * reading the cache never sees half an install, and of two first uses at once the second's
 * rename finds the first's and discards its own. Synchronous: `require` is.
 */
export function installSdkPackage(settings: SdkSettings, name: string): InstallOutcome {
  const folder = installFolder(settings, name);
  if (existsSync(folder)) return { ok: true, folder };
  const parent = join(folder, '..');
  mkdirSync(parent, { recursive: true });
  removeAbandoned(parent);
  const staging = `${folder}.${randomUUID()}${PARTIAL}`;
  mkdirSync(staging);
  try {
    writeFileSync(
      join(staging, 'package.json'),
      JSON.stringify({
        private: true,
        dependencies: { [name]: `<=${settings.release}` },
        overrides: settings.pins,
      }),
    );
    const npm = spawnSync(
      settings.npm.command,
      [
        ...settings.npm.args,
        'install',
        `--prefix=${staging}`,
        '--ignore-scripts',
        '--omit=dev',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--prefer-offline',
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=5000',
        '--loglevel=error',
      ],
      { cwd: staging, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, env: settings.npm.env },
    );
    if (npm.error) return { ok: false, problem: `npm could not be run: ${npm.error.message}` };
    if (npm.status !== 0) {
      // npm's own words, without the stack frames it prints under them.
      const said = `${npm.stderr}`
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^npm error\s+at /.test(line))
        .slice(0, 6)
        .join(' | ');
      return { ok: false, problem: `npm install exited ${npm.status ?? npm.signal}: ${said}` };
    }
    if (!existsSync(join(staging, 'node_modules', name))) {
      return { ok: false, problem: `npm install did not install ${name}` };
    }
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another process installed it first: theirs is complete, ours is not needed.
      if (!existsSync(folder)) throw error;
    }
    return { ok: true, folder };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The cache as one process uses it: each package installed at most once per process (a failed
 * install is not retried at every `require`), saying what it does through `notice`.
 */
export class SdkCache {
  private readonly failed = new Set<string>();

  constructor(
    private readonly settings: SdkSettings,
    private readonly notice: (text: string) => void,
  ) {}

  /** The folder whose node_modules holds `name`, installing it first; undefined when it cannot be had. */
  folderFor(name: string): string | undefined {
    if (this.failed.has(name)) return undefined;
    const folder = installFolder(this.settings, name);
    if (existsSync(folder)) return folder;
    this.notice(
      `Installing ${name}@<=${this.settings.release} (not shipped with the sandbox) into ${folder} on its first use.`,
    );
    const outcome = installSdkPackage(this.settings, name);
    if (outcome.ok) return outcome.folder;
    this.failed.add(name);
    this.notice(
      `Could not install ${name} for this function: ${outcome.problem}. The handler gets Node's own "cannot find" error for it. To fix it, make the npm registry reachable from this machine (npm config get registry; a proxy through HTTPS_PROXY), or install it by hand: ${manualInstall(this.settings, name)}`,
    );
    return undefined;
  }
}

/** The manual install that puts a package where the cache looks for it. */
export function manualInstall(settings: SdkSettings, name: string): string {
  return `npm install --prefix '${installFolder(settings, name)}' '${name}@<=${settings.release}'`;
}

/** Staging folders of installs a killed process never finished. */
function removeAbandoned(parent: string): void {
  for (const entry of readdirSync(parent)) {
    if (!entry.endsWith(PARTIAL)) continue;
    const path = join(parent, entry);
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ABANDONED_AFTER_MS) rmSync(path, { recursive: true, force: true });
  }
}

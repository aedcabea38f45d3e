import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * A V8 code cache for the CommonJS modules the CLI loads (its bundle and the packages it
 * requires), as Node 22's `module.enableCompileCache()` keeps for every module; Node 20 has
 * none. Compiling the code of a no-op redeploy is about a third of its CPU; a cached module
 * is deserialized instead. Entries are written once, at exit, for modules that had none.
 */

/** What this process found in the cache (a test reads it to tell a hit from a compile). */
export interface CompileCacheStats {
  dir: string;
  hits: number;
  misses: number;
  rejected: number;
  /** Modules compiled by Node itself, uncached: ES modules, and sources that call import(). */
  passedOn: number;
}

interface PendingEntry {
  script: vm.Script;
  file: string;
  digest: Buffer;
}

interface CompilingModule {
  exports: unknown;
  require(id: string): unknown;
}

type Compile = (this: CompilingModule, content: string, filename: string, format?: string) => unknown;

interface ModuleInternals {
  prototype: { _compile: Compile };
  wrap(content: string): string;
  _resolveFilename(request: string, parent: CompilingModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: CompilingModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}

const DIGEST_BYTES = 20;
/** Entries kept: every command's modules fit several times over; a new build's files get new names. */
const MAX_ENTRIES = 1500;
let stats: CompileCacheStats | undefined;

/**
 * The cache's folder: `CDKD_COMPILE_CACHE` if set, else the user's cache folder; undefined
 * when it is turned off (`CDKD_COMPILE_CACHE=off`, or Node's own `NODE_DISABLE_COMPILE_CACHE`).
 * One folder per Node version and architecture: V8 refuses another version's entries anyway.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.CDKD_COMPILE_CACHE;
  if (given === 'off' || given === '0' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const base = given || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cdkd', 'compile-cache');
  return join(base, `${process.version}-${process.arch}`);
}

/** Starts caching the CommonJS modules compiled from now on; does nothing when turned off. */
export function enableCompileCache(dir: string | undefined = compileCacheDir()): void {
  if (!dir || stats) return;
  const internals = Module as unknown as ModuleInternals;
  const compile = internals.prototype._compile;
  const pending: PendingEntry[] = [];
  const current: CompileCacheStats = { dir, hits: 0, misses: 0, rejected: 0, passedOn: 0 };
  stats = current;

  internals.prototype._compile = function cachedCompile(content, filename, format) {
    // An ES module reached through require(), or a source with import() (a script compiled here
    // has no loader for it): compiled by Node as usual, uncached.
    if (format === 'module' || content.includes('import(')) {
      current.passedOn++;
      return compile.call(this, content, filename, format);
    }
    const file = join(dir, createHash('sha1').update(filename).digest('hex'));
    const digest = createHash('sha1').update(content).digest();
    const cachedData = readEntry(file, digest);
    let script: vm.Script;
    try {
      script = new vm.Script(internals.wrap(withoutHashbang(content)), { filename, cachedData });
    } catch {
      // A syntax error is reported by Node's own compile, as it would be without the cache.
      current.passedOn++;
      return compile.call(this, content, filename, format);
    }
    if (cachedData && !script.cachedDataRejected) current.hits++;
    else {
      current.misses++;
      if (cachedData) current.rejected++;
      pending.push({ script, file, digest });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(
      this.exports,
      this.exports,
      requireFor(this, internals),
      this,
      filename,
      dirname(filename),
    );
  };

  process.once('exit', () => writeEntries(dir, pending));
}

/** This process's hits and misses, or undefined when the cache is not enabled. */
export function compileCacheStats(): CompileCacheStats | undefined {
  return stats && { ...stats };
}

function readEntry(file: string, digest: Buffer): Buffer | undefined {
  try {
    const entry = readFileSync(file);
    return entry.subarray(0, DIGEST_BYTES).equals(digest) ? entry.subarray(DIGEST_BYTES) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each entry is written whole to a file of its own, then renamed over the old one, so a
 * process reading the cache while another writes it sees the old entry or the new one.
 * The entry is made at exit: it then also holds the functions this run compiled lazily.
 * A cache that cannot be written is only a slower next start, never an error.
 */
function writeEntries(dir: string, pending: readonly PendingEntry[]): void {
  if (pending.length === 0) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return;
  }
  for (const { script, file, digest } of pending) {
    const partial = `${file}.${process.pid}.partial`;
    try {
      writeFileSync(partial, Buffer.concat([digest, script.createCachedData()]));
      renameSync(partial, file);
    } catch {
      rmSync(partial, { force: true });
    }
  }
  pruneOldest(dir);
}

/**
 * Bounds the folder: past MAX_ENTRIES, the older half (by when written) goes. An entry still
 * in use that goes is written again by the next run that needs it.
 */
function pruneOldest(dir: string): void {
  try {
    const names = readdirSync(dir);
    if (names.length <= MAX_ENTRIES) return;
    const written = names.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }));
    written.sort((a, b) => a.at - b.at);
    for (const { name } of written.slice(0, names.length - MAX_ENTRIES / 2))
      rmSync(join(dir, name), { force: true });
  } catch {
    return;
  }
}

/** The `require` Node hands a module: resolves from that module, shares the module cache. */
function requireFor(module: CompilingModule, internals: ModuleInternals): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) =>
    internals._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => internals._resolveLookupPaths(request, module);
  return Object.assign(require, {
    resolve,
    main: process.mainModule,
    extensions: internals._extensions as NodeJS.Require['extensions'],
    cache: internals._cache as NodeJS.Require['cache'],
  });
}

/** A `#!` line is valid only at the very start of a script, not inside the module wrapper. */
function withoutHashbang(content: string): string {
  return content.startsWith('#!') ? `//${content}` : content;
}

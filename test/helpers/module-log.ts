import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import { runCli, type CliResult } from './cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = pathToFileURL(join(ROOT, 'dist/cli/bundle/')).href;

/**
 * Runs the built CLI with hooks that log the URL of every module it loads (through `import`
 * or `require`), so a test can say what a command loads (and what it must not). A file of
 * the bundled CLI stands for the dist/ modules it holds (scripts/bundle-cli.mjs).
 */
export function useModuleLog(): (
  args: string[],
  env?: Record<string, string>,
) => Promise<CliResult & { modules: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cdkd-module-log-'));
  const hook = join(dir, 'hook.mjs');
  const register = join(dir, 'register.mjs');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.MODULE_LOG, result.url + '\\n');
  return result;
}
`,
  );
  // require() calls too: cdkd loads some CommonJS packages (the AWS SDK) that way.
  writeFileSync(
    register,
    `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(pathToFileURL(hook).href)});
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  if (isAbsolute(file)) appendFileSync(process.env.MODULE_LOG, pathToFileURL(file).href + '\\n');
  return file;
};
`,
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let runs = 0;
  return async (args, env = {}) => {
    const log = join(dir, `run-${++runs}.log`);
    writeFileSync(log, '');
    const result = await runCli(args, {
      env: { ...env, MODULE_LOG: log, NODE_OPTIONS: `--import ${pathToFileURL(register).href}` },
    });
    const bundled = JSON.parse(readFileSync(join(ROOT, 'dist/cli/bundle/modules.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    const modules = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((url) => {
        const held = url.startsWith(BUNDLE) ? bundled[url.slice(BUNDLE.length)] : undefined;
        return held ? [url, ...held.map((file) => pathToFileURL(join(ROOT, file)).href)] : [url];
      });
    return { ...result, modules };
  };
}

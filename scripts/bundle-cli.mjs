// Bundles the compiled CLI (dist/cli/main.js and everything it imports from dist/) into
// dist/cli/bundle/, one file per lazily imported part, and turns dist/cli/main.js into a
// short entry that turns on the compile cache and loads it. Node resolves, reads and links
// a few dozen files instead of about 200 on every command (bench/cli-start.ts,
// bench/noop-deploy.ts). The parts are CommonJS (.cjs): Node 20 keeps a V8 code cache only
// for what it can hand to vm.Script (src/cli/compile-cache.ts), and CommonJS code requires
// the packages' CommonJS builds, which are cached too. esbuild splits only ES modules, so
// the parts are split as ES modules first, then each is turned into CommonJS. Packages stay
// outside the bundle but for those in BUNDLED. The rest of dist/ is kept as tsc wrote it (the
// sandbox's Lambda bootstrap runs from there). The entry also tunes V8's tiering for a short run
// (src/cli/v8-tiering.ts). bundle/modules.json maps each bundle file to the dist/ modules it holds, so
// a test can still tell which of them a command loaded.
// Usage: node scripts/bundle-cli.mjs (after tsc, as `npm run build` does).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli');
const outdir = join(cli, 'bundle');
/**
 * Packages bundled with the CLI: the proxy agents ship only ES modules (require() of one needs
 * Node 20.19); zod is tree-shaken (its 60 locale files are never loaded); the assembly schema
 * library and its semver and jsonschema become one part instead of about 80 files. Each was
 * checked to find no file of its own at run time (by __dirname or a path).
 */
const BUNDLED = new Set([
  'http-proxy-agent',
  'https-proxy-agent',
  'agent-base',
  'zod',
  '@aws-cdk/cloud-assembly-schema',
  'semver',
  'jsonschema',
]);

/**
 * The AWS SDK, with every package it imports: bundled from its ES module builds, so esbuild
 * keeps only the commands and code cdkd names (a no-op deploy loads a fraction of the S3
 * client) and one copy of @smithy/* serves every client. The SDK reads no file of its own.
 */
const SDK_SCOPES = ['@aws-sdk/', '@smithy/', '@aws-crypto/'];

const packageName = (path) =>
  path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
const inSdk = (name) => SDK_SCOPES.some((scope) => name.startsWith(scope));
/** The package a resolved file belongs to (the innermost node_modules folder on its path). */
const packageOf = (file) => {
  const inside = file
    .split(/[\\/]node_modules[\\/]/)
    .slice(1)
    .pop();
  return inside === undefined ? undefined : packageName(inside.replaceAll('\\', '/'));
};

/** Every package import is left to Node, but for the BUNDLED packages and the SDK's closure. */
const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      const name = packageName(path);
      if (BUNDLED.has(name) || inSdk(name)) return undefined;
      const from = packageOf(importer);
      return from !== undefined && inSdk(from) ? undefined : { path, external: true };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [join(cli, 'main.js')],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [packagesOutside],
  // ES module builds first: only they let esbuild drop the unused parts of a package.
  mainFields: ['module', 'main'],
  outdir,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const commonJsName = (file) => basename(file).replace(/\.js$/, '.cjs');
const modules = {};
for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
  const file = join(root, output);
  const esm = readFileSync(file, 'utf8').replace(/(["'])\.\/((?:chunk-)?[\w-]+)\.js\1/g, '$1./$2.cjs$1');
  const { code } = await transform(esm, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Parts load one another with require (so they are cached); import() would load them as ES modules.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__moduleUrl' },
    banner: 'var __moduleUrl = require("node:url").pathToFileURL(__filename).href;',
    sourcefile: file,
    logLevel: 'warning',
  });
  writeFileSync(join(outdir, commonJsName(file)), code);
  rmSync(file);
  modules[commonJsName(file)] = Object.keys(inputs).map((input) => relative(root, join(root, input)));
}
writeFileSync(join(outdir, 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);
writeFileSync(
  join(cli, 'main.js'),
  [
    '#!/usr/bin/env node',
    "import { createRequire } from 'node:module';",
    "import { enableCompileCache } from './compile-cache.js';",
    "import { tuneTiering } from './v8-tiering.js';",
    'tuneTiering();',
    'enableCompileCache();',
    "createRequire(import.meta.url)('./bundle/main.cjs');",
    '',
  ].join('\n'),
);
